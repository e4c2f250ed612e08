import type { Sql } from '@shiplog/db/client'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'

/** The workspace a request acts in: a key's, or a signed-in person's. */
export type Workspace = Pick<KeyOwner, 'workspaceId'>

/**
 * The two pools a read may use: `replica` (DATABASE_READ_URL, else the primary itself) for
 * recorded deployments, `primary` for the queue and for rows the replica may not have yet.
 */
export interface ReadClients {
  replica: Sql
  primary: Sql
}
