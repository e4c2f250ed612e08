import type { DeploymentRecord, PageCursor } from '@shiplog/schema'
import type { Sql } from '../client.ts'

/** Which deployments of a workspace to list, newest `deployedAt` first. */
export interface DeploymentFilters {
  workspaceId: string
  appKey?: string
  environmentKey?: string
  repositoryKey?: string
  version?: string
  /** Lower-case hexadecimal; matches commits that start with it. */
  commitPrefix?: string
  /** RFC 3339; deployedAt at or after. */
  since?: string
  /** RFC 3339; deployedAt before. */
  until?: string
  limit: number
  after?: PageCursor
}

/** One page of recorded deployments and the cursor of the next page. */
export interface DeploymentRows {
  records: DeploymentRecord[]
  next: PageCursor | null
}

interface Row extends DeploymentRecord {
  deployedAtMicros: string
}

/** Lists a workspace's recorded deployments with keyset pagination. */
export async function listDeployments(sql: Sql, query: DeploymentFilters): Promise<DeploymentRows> {
  const rows = await sql<Row[]>`
    select d.id, r.full_name as "repositoryFullName", e.name as environment, a.name as app,
           d.version, d.commit_hash as "commitHash", d.description, d.author,
           iso_utc(d.deployed_at) as "deployedAt", d.monorepo_path as "monorepoPath",
           iso_utc(d.received_at) as "receivedAt", iso_utc(d.recorded_at) as "recordedAt",
           ((extract(epoch from d.deployed_at) * 1000000)::bigint)::text as "deployedAtMicros"
      from deployments d
      join applications a on a.id = d.application_id
      join repositories r on r.id = a.repository_id
      join environments e on e.id = d.environment_id
     where d.workspace_id = ${query.workspaceId}
       ${query.appKey === undefined ? sql`` : sql`and a.name_key = ${query.appKey}`}
       ${query.environmentKey === undefined ? sql`` : sql`and e.name_key = ${query.environmentKey}`}
       ${query.repositoryKey === undefined ? sql`` : sql`and r.full_name_key = ${query.repositoryKey}`}
       ${query.version === undefined ? sql`` : sql`and d.version = ${query.version}`}
       ${query.commitPrefix === undefined ? sql`` : sql`and starts_with(d.commit_hash, ${query.commitPrefix})`}
       ${query.since === undefined ? sql`` : sql`and d.deployed_at >= ${query.since}::text::timestamptz`}
       ${query.until === undefined ? sql`` : sql`and d.deployed_at < ${query.until}::text::timestamptz`}
       ${
         query.after === undefined
           ? sql``
           : sql`and (d.deployed_at, d.id) < (timestamptz 'epoch' + ${String(query.after.deployedAtMicros)}::bigint * interval '1 microsecond', ${query.after.id}::uuid)`
       }
     order by d.deployed_at desc, d.id desc
     limit ${query.limit + 1}`
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  return {
    records: page.map(({ deployedAtMicros: _, ...record }) => record),
    next:
      rows.length > query.limit && last
        ? { deployedAtMicros: BigInt(last.deployedAtMicros), id: last.id }
        : null,
  }
}

/** A recorded deployment by its id, or by the receipt id of a delivery that repeated it. */
export async function findRecordedDeployment(
  sql: Sql,
  workspaceId: string,
  id: string,
): Promise<{ record: DeploymentRecord; duplicateOf: string | null } | undefined> {
  const [row] = await sql<(DeploymentRecord & { canonicalId: string })[]>`
    select d.id as "canonicalId", r.full_name as "repositoryFullName", e.name as environment,
           a.name as app, d.version, d.commit_hash as "commitHash", d.description, d.author,
           iso_utc(d.deployed_at) as "deployedAt", d.monorepo_path as "monorepoPath",
           iso_utc(d.received_at) as "receivedAt", iso_utc(d.recorded_at) as "recordedAt"
      from deployments d
      join applications a on a.id = d.application_id
      join repositories r on r.id = a.repository_id
      join environments e on e.id = d.environment_id
     where d.workspace_id = ${workspaceId}
       and d.id = coalesce(
             (select deployment_id from deployment_aliases where id = ${id}::uuid), ${id}::uuid)`
  if (!row) return undefined
  const { canonicalId, ...record } = row
  return { record: { ...record, id }, duplicateOf: canonicalId === id ? null : canonicalId }
}
