import { beforeAll } from 'bun:test'
import type { ClientOptions, Sql } from '../client.ts'
import { ensureWorkspace } from '../queries/workspaces.ts'
import { databasePerFile } from './database-per-file.ts'

/**
 * The test file's database (see `databasePerFile`) with two workspaces, `alpha` and `beta`: the
 * jobs of `recorded-jobs.ts` name them by index. Read `workspaceIds` inside hooks and tests.
 */
export function twoWorkspacesPerFile(options: ClientOptions): {
  sql: Sql
  readonly workspaceIds: [string, string]
} {
  const { sql } = databasePerFile(options)
  let ids: [string, string] | undefined
  beforeAll(async () => {
    ids = [(await ensureWorkspace(sql, 'alpha')).id, (await ensureWorkspace(sql, 'beta')).id]
  })
  return {
    sql,
    get workspaceIds() {
      if (!ids) throw new Error('the workspaces are made in beforeAll: read them in a test')
      return ids
    },
  }
}
