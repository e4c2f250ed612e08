import type { DeploymentCommits, ValidCommit } from '@shiplog/schema'
import type { Sql } from '../client.ts'

/**
 * Replaces the commits stored for a deployment (its receipt id) with `commits`, in one
 * transaction: sending the same list again changes nothing, a corrected one replaces it.
 */
export async function replaceDeploymentCommits(
  sql: Sql,
  workspaceId: string,
  deploymentId: string,
  list: { commits: ValidCommit[]; truncated: boolean },
): Promise<void> {
  await sql.begin(async (tx) => {
    // The commits first, while their list still names the workspace: the DORA facts' trigger
    // (migration 0014) looks the workspace up there.
    await tx`delete from deployment_commits where deployment_id = ${deploymentId}`
    await tx`delete from deployment_commit_lists where deployment_id = ${deploymentId}`
    await tx`
      insert into deployment_commit_lists (deployment_id, workspace_id, truncated)
      values (${deploymentId}, ${workspaceId}, ${list.truncated})`
    if (list.commits.length === 0) return
    // One statement for up to 5,000 commits: arrays unnested, reverts as JSON arrays of text.
    await tx`
      insert into deployment_commits (deployment_id, sha, committed_at, authored_at, reverts)
      select ${deploymentId}, sha, committed::timestamptz, authored::timestamptz,
             array(select jsonb_array_elements_text(reverts::jsonb))
        from unnest(${list.commits.map((c) => c.sha)}::text[],
                    ${list.commits.map((c) => c.committedAt.iso)}::text[],
                    ${list.commits.map((c) => c.authoredAt.iso)}::text[],
                    ${list.commits.map((c) => JSON.stringify(c.reverts))}::text[])
             as given(sha, committed, authored, reverts)`
  })
}

/** The commits stored for a deployment of the workspace, newest committer time first. */
export async function findDeploymentCommits(
  sql: Sql,
  workspaceId: string,
  deploymentId: string,
): Promise<DeploymentCommits | undefined> {
  const [list] = await sql<{ truncated: boolean }[]>`
    select truncated from deployment_commit_lists
     where deployment_id = ${deploymentId} and workspace_id = ${workspaceId}`
  if (!list) return undefined
  const commits = await sql<DeploymentCommits['commits']>`
    select sha, iso_utc(committed_at) as "committedAt", iso_utc(authored_at) as "authoredAt", reverts
      from deployment_commits where deployment_id = ${deploymentId}
     order by committed_at desc, sha`
  return { deploymentId, truncated: list.truncated, commits: [...commits] }
}
