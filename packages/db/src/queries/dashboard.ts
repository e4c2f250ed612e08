import type { Sql } from '../client.ts'

/** The workspace's repositories by name, for the overview's filter. */
export async function repositoryNames(sql: Sql, workspaceId: string): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select full_name as name from repositories
     where workspace_id = ${workspaceId} order by full_name_key`
  return rows.map((row) => row.name)
}

/** Who triggered each of these deployments (the overview's cells), by id; one key probe each. */
export async function authorsOf(sql: Sql, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const rows = await sql<{ id: string; author: string }[]>`
    select id, author from deployments where id = any(${ids}::uuid[]) and author is not null`
  return new Map(rows.map((row) => [row.id, row.author]))
}

/** The deployment this one replaced in its application and environment, if any. */
export async function replacedDeployment(
  sql: Sql,
  workspaceId: string,
  id: string,
): Promise<{ id: string; version: string; deployedAt: string } | undefined> {
  const [row] = await sql<{ id: string; version: string; deployedAt: string }[]>`
    select p.id, p.version, iso_utc(p.deployed_at) as "deployedAt"
      from deployments d
     cross join lateral deployment_before(d.application_id, d.environment_id, d.deployed_at, d.id) p
     where d.id = ${id} and d.workspace_id = ${workspaceId}`
  return row
}
