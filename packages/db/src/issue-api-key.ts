import { DEFAULT_SCOPES, type Scope } from '@shiplog/schema'
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

/**
 * Creates a key for a workspace (creating the workspace if needed); stores only its hash. Without
 * `scopes` it gets the default ones (record deployments, read).
 */
export async function issueApiKey(
  sql: Sql,
  options: {
    workspace: string
    name: string
    scopes?: readonly Scope[]
    rateLimitPerMinute?: number | null
  },
): Promise<IssuedApiKey> {
  const workspace = await ensureWorkspace(sql, options.workspace)
  const key = generateApiKey()
  const id = await insertApiKey(sql, {
    workspaceId: workspace.id,
    name: options.name,
    prefix: apiKeyPrefix(key),
    keyHash: hashApiKey(key),
    scopes: options.scopes ?? DEFAULT_SCOPES,
    rateLimitPerMinute: options.rateLimitPerMinute ?? null,
  })
  return { id, key, prefix: apiKeyPrefix(key), workspaceCreated: workspace.created }
}
