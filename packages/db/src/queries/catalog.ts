import type { ApplicationSummary, EnvironmentSummary } from '@shiplog/schema'
import type { Sql } from '../client.ts'

export type { ApplicationSummary, EnvironmentSummary, LatestDeployment } from '@shiplog/schema'

// The latest deployment per group is found with one lateral index scan each (the `*_by_*`
// indexes are ordered by deployedAt), not by sorting the whole table.
const latestJson = (alias: string) => `json_build_object(
  'id', ${alias}.id, 'app', ${alias}.app, 'environment', ${alias}.environment,
  'version', ${alias}.version, 'commitHash', ${alias}.commit_hash,
  'deployedAt', iso_utc(${alias}.deployed_at))`

/** The workspace's applications, by repository then name, optionally of one repository. */
export async function listApplications(
  sql: Sql,
  workspaceId: string,
  repositoryKey?: string,
): Promise<ApplicationSummary[]> {
  return sql<ApplicationSummary[]>`
    select a.name as app, r.full_name as "repositoryFullName", a.monorepo_path as "monorepoPath",
           (select count(*)::int from deployments d where d.application_id = a.id) as "deploymentCount",
           ${sql.unsafe(latestJson('latest'))} as "lastDeployment"
      from applications a
      join repositories r on r.id = a.repository_id
      left join lateral (
        select d.id, a.name as app, e.name as environment, d.version, d.commit_hash, d.deployed_at
          from deployments d join environments e on e.id = d.environment_id
         where d.application_id = a.id
         order by d.deployed_at desc, d.id desc limit 1) latest on true
     where a.workspace_id = ${workspaceId}
       ${repositoryKey === undefined ? sql`` : sql`and r.full_name_key = ${repositoryKey}`}
     order by r.full_name_key, a.name_key`.then((rows) =>
    rows.map((row) => ({
      ...row,
      lastDeployment: row.lastDeployment?.id ? row.lastDeployment : null,
    })),
  )
}

/** The workspace's environments, by name. */
export async function listEnvironments(
  sql: Sql,
  workspaceId: string,
): Promise<EnvironmentSummary[]> {
  return sql<EnvironmentSummary[]>`
    select e.name as environment,
           (select count(*)::int from deployments d where d.environment_id = e.id) as "deploymentCount",
           ${sql.unsafe(latestJson('latest'))} as "lastDeployment"
      from environments e
      left join lateral (
        select d.id, a.name as app, e.name as environment, d.version, d.commit_hash, d.deployed_at
          from deployments d join applications a on a.id = d.application_id
         where d.environment_id = e.id
         order by d.deployed_at desc, d.id desc limit 1) latest on true
     where e.workspace_id = ${workspaceId}
     order by e.name_key`.then((rows) =>
    rows.map((row) => ({
      ...row,
      lastDeployment: row.lastDeployment?.id ? row.lastDeployment : null,
    })),
  )
}
