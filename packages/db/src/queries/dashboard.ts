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
