import type { Queryable, Sql } from '../client.ts'

/** The workspace with this slug, created if absent. */
export async function ensureWorkspace(
  sql: Queryable,
  slug: string,
): Promise<{ id: string; created: boolean }> {
  const [row] = await sql<{ id: string; created: boolean }[]>`
    with inserted as (
      insert into workspaces (slug) values (${slug}) on conflict (slug) do nothing returning id
    )
    select id::text, true as created from inserted
    union all
    select id::text, false from workspaces where slug = ${slug}
    limit 1`
  if (!row) throw new Error(`workspace ${slug} could not be created`)
  return row
}

/** The id of the workspace with this slug, or undefined: unlike ensureWorkspace, creates none. */
export async function findWorkspaceId(sql: Queryable, slug: string): Promise<string | undefined> {
  const [row] = await sql<{ id: string }[]>`select id::text from workspaces where slug = ${slug}`
  return row?.id
}

/** How many workspaces exist; zero means a fresh database. */
export async function countWorkspaces(sql: Sql): Promise<number> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from workspaces`
  return row?.count ?? 0
}
