import type { DeploymentCommit, DeploymentCommits, ValidCommit } from '@shiplog/schema'
import type { Sql, Tx } from '../client.ts'

/** An empty list sent for a deployment that has commits stored: refused, the list kept. */
export class StoredListKept extends Error {
  constructor(readonly stored: number) {
    super(`the deployment has ${stored} commits stored; an empty list does not replace them`)
  }
}

/**
 * Replaces the commits stored for a deployment (its receipt id) with `commits`. Concurrent calls
 * for one deployment are stored one after the other, the last to commit staying whole: sending
 * the same list again changes nothing, a corrected one replaces it (docs/api.md). An empty list
 * never replaces a stored one (throws StoredListKept, nothing changed): a pipeline that ran again
 * without the history it had, or that now sees this deployment as a redeploy, would otherwise
 * erase what the DORA keys count of it.
 */
export async function replaceDeploymentCommits(
  sql: Sql,
  workspaceId: string,
  deploymentId: string,
  list: StoredCommitList,
): Promise<void> {
  await sql.begin(async (tx) => {
    // A list a pipeline sends wins over one derived from pushes (integrations/commit-chains.ts):
    // the chain's row is locked first, as the deriving transaction locks it, so neither waits on
    // the other's list.
    await tx`
      update commit_chains set state = 'sent', reason = null, updated_at = now()
       where deployment_id = ${deploymentId}`
    await writeDeploymentCommits(tx, workspaceId, deploymentId, list)
  })
}

/** A deployment's commits as stored. */
export interface StoredCommitList {
  commits: ValidCommit[]
  truncated: boolean
  webUrl?: string | null
}

/** replaceDeploymentCommits's write, in the caller's transaction. */
export async function writeDeploymentCommits(
  tx: Tx,
  workspaceId: string,
  deploymentId: string,
  list: StoredCommitList,
): Promise<void> {
  // The list's row, inserted or locked in one statement, decides the order: a second writer
  // waits here, before any lock of the commits' triggers (08_write_locks.sql), so two writers
  // can neither deadlock on those nor both insert the row (which answered 500 and 503).
  await tx`
    insert into deployment_commit_lists (deployment_id, workspace_id, truncated, web_url)
    values (${deploymentId}, ${workspaceId}, ${list.truncated}, ${list.webUrl ?? null})
    on conflict (deployment_id) do update
      set truncated = excluded.truncated, web_url = excluded.web_url,
          stored_at = excluded.stored_at`
  if (list.commits.length === 0) {
    // Counted after the row above is locked: no other list of this deployment is half stored.
    const [held] = await tx<{ count: number }[]>`
      select count(*)::int as count from deployment_commits where deployment_id = ${deploymentId}`
    if ((held?.count ?? 0) > 0) throw new StoredListKept(held?.count ?? 0)
  }
  // Up to 5,000 commits as one set: arrays unnested, reverts as JSON arrays of text.
  const given = tx`
    select sha, committed::timestamptz as committed_at, authored::timestamptz as authored_at,
           array(select jsonb_array_elements_text(reverts::jsonb)) as reverts, subject, author
      from unnest(${list.commits.map((c) => c.sha)}::text[],
                  ${list.commits.map((c) => c.committedAt.iso)}::text[],
                  ${list.commits.map((c) => c.authoredAt.iso)}::text[],
                  ${list.commits.map((c) => JSON.stringify(c.reverts))}::text[],
                  ${list.commits.map((c) => c.subject ?? null)}::text[],
                  ${list.commits.map((c) => c.author ?? null)}::text[])
           as given(sha, committed, authored, reverts, subject, author)`
  // Only what differs is deleted and inserted: a repeat changes no row, so its triggers
  // refresh no DORA facts. (Subject and author may be null: compared as values, not by `=`.)
  await tx`
    delete from deployment_commits c
     where c.deployment_id = ${deploymentId}
       and not exists (
         select 1 from (${given}) g
          where g.sha = c.sha and g.committed_at = c.committed_at
            and g.authored_at = c.authored_at and g.reverts = c.reverts
            and g.subject is not distinct from c.subject
            and g.author is not distinct from c.author)`
  if (list.commits.length === 0) return
  await tx`
    insert into deployment_commits (deployment_id, sha, committed_at, authored_at, reverts,
                                    subject, author)
    select ${deploymentId}, g.sha, g.committed_at, g.authored_at, g.reverts, g.subject, g.author
      from (${given}) g
    on conflict (deployment_id, sha) do nothing`
}
/** The commits stored for a deployment of the workspace, newest committer time first. */
export async function findDeploymentCommits(
  sql: Sql,
  workspaceId: string,
  deploymentId: string,
): Promise<DeploymentCommits | undefined> {
  const [list] = await sql<{ truncated: boolean; webUrl: string | null }[]>`
    select truncated, web_url as "webUrl" from deployment_commit_lists
     where deployment_id = ${deploymentId} and workspace_id = ${workspaceId}`
  if (!list) return undefined
  const rows = await sql<(DeploymentCommit & { subject: string | null; author: string | null })[]>`
    select sha, iso_utc(committed_at) as "committedAt", iso_utc(authored_at) as "authoredAt",
           reverts, subject, author
      from deployment_commits where deployment_id = ${deploymentId}
     order by committed_at desc, sha`
  // Subject and author are left out where they were not sent, as the list was sent.
  const commits = rows.map(({ subject, author, ...commit }) => ({
    ...commit,
    ...(subject === null ? {} : { subject }),
    ...(author === null ? {} : { author }),
  }))
  return { deploymentId, truncated: list.truncated, webUrl: list.webUrl, commits }
}
