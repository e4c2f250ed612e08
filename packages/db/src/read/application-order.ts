import type { Queryable, Sql, Tx } from '../client.ts'
import { poolOf } from './snapshot.ts'

/** An application as answers list it. */
export interface NamedApplication {
  id: string
  app: string
  repositoryFullName: string
}

/** Every application of a workspace, by id, with its place in the listing order. */
type Catalog = Map<string, { application: NamedApplication; place: number }>

// Workspaces whose catalog a pool keeps, the most recently used last (a Map keeps insertion order).
const WORKSPACES_KEPT = 64
// One cache per pool: two databases (the databases of two tests, say) number their workspaces
// and applications independently.
const cachesByPool = new WeakMap<Queryable, Map<string, Catalog>>()

async function loadCatalog(tx: Tx, workspaceId: string): Promise<Catalog> {
  const rows = await tx<NamedApplication[]>`
    select a.id::text, a.name as app, r.full_name as "repositoryFullName"
      from applications a join repositories r on r.id = a.repository_id
     where a.workspace_id = ${workspaceId}
     order by r.full_name_key, a.name_key`
  return new Map(rows.map((application, place) => [application.id, { application, place }]))
}

/**
 * The applications `ids` of a workspace, named and in listing order (repository, then name, as
 * `/v1/applications` sorts them). A frequency answer lists up to every application of the
 * workspace, and sorting thousands of names costs Postgres milliseconds at every request, so each
 * pool keeps the ordered catalog of the workspaces it reads. A catalog stays right for every
 * application it holds: ids are never reused, and an application's name and repository never
 * change (names keep their first spelling), so neither does its place among the others. An id
 * the catalog lacks (an application created since) reloads it, in the caller's snapshot.
 */
export async function applicationsInOrder(
  sql: Sql,
  tx: Tx,
  workspaceId: string,
  ids: Iterable<string>,
): Promise<NamedApplication[]> {
  // Inside a dashboard page's snapshot, the cache of the pool it was taken from.
  const pool = poolOf(sql)
  let cache = cachesByPool.get(pool)
  if (!cache) {
    cache = new Map()
    cachesByPool.set(pool, cache)
  }
  const wanted = [...ids]
  let catalog = cache.get(workspaceId)
  if (!catalog || !wanted.every((id) => catalog?.has(id))) {
    catalog = await loadCatalog(tx, workspaceId)
  }
  cache.delete(workspaceId)
  cache.set(workspaceId, catalog)
  for (const workspace of cache.keys()) {
    if (cache.size <= WORKSPACES_KEPT) break
    cache.delete(workspace)
  }
  const found = wanted.flatMap((id) => catalog.get(id) ?? [])
  return found.sort((a, b) => a.place - b.place).map(({ application }) => application)
}
