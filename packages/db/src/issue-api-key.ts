import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-key.ts'
import type { Sql } from './client.ts'
import { insertApiKey } from './queries/api-keys.ts'
import { ensureWorkspace } from './queries/workspaces.ts'

/** A freshly issued key: the plaintext exists only in this object. */
export interface IssuedApiKey {
  id: string
  key: string
  prefix: string
  workspaceCreated: boolean
}

/** Creates a key for a workspace (creating the workspace if needed); stores only its hash. */
export async function issueApiKey(
  sql: Sql,
  options: { workspace: string; name: string; rateLimitPerMinute?: number | null },
): Promise<IssuedApiKey> {
  const workspace = await ensureWorkspace(sql, options.workspace)
  const key = generateApiKey()
  const id = await insertApiKey(sql, {
    workspaceId: workspace.id,
    name: options.name,
    prefix: apiKeyPrefix(key),
    keyHash: hashApiKey(key),
    rateLimitPerMinute: options.rateLimitPerMinute ?? null,
  })
  return { id, key, prefix: apiKeyPrefix(key), workspaceCreated: workspace.created }
}
