import { checkKeyName, DEFAULT_SCOPES, isInvalid, type Scope } from '@shiplog/schema'
import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-key.ts'
import type { Sql } from './client.ts'
import { insertApiKey, revokeApiKey } from './queries/api-keys.ts'
import { type Actor, recordAuditEvent } from './queries/audit-events.ts'
import { ensureWorkspace } from './queries/workspaces.ts'

/** A freshly issued key: the plaintext exists only in this object. */
export interface IssuedApiKey {
  id: string
  key: string
  prefix: string
  workspaceCreated: boolean
}

// Keys made by a fixture, the dev script or `bun run keys`: the command line on the server.
const COMMAND_LINE: Actor = { kind: 'cli' }

/**
 * Creates a key for a workspace (creating the workspace if needed); stores only its hash, and who
 * created it in the audit trail, in one transaction. Without `scopes` it gets the default ones
 * (record deployments, read). Throws for a name `checkKeyName` refuses, before anything is stored.
 */
export async function issueApiKey(
  sql: Sql,
  options: {
    workspace: string
    name: string
    scopes?: readonly Scope[]
    rateLimitPerMinute?: number | null
  },
  actor: Actor = COMMAND_LINE,
): Promise<IssuedApiKey> {
  const name = checkKeyName(options.name)
  if (isInvalid(name)) throw new Error(`The key's name ${name.error}.`)
  const key = generateApiKey()
  const prefix = apiKeyPrefix(key)
  const scopes = options.scopes ?? DEFAULT_SCOPES
  return sql.begin(async (tx) => {
    const workspace = await ensureWorkspace(tx, options.workspace)
    const id = await insertApiKey(tx, {
      workspaceId: workspace.id,
      name,
      prefix,
      keyHash: hashApiKey(key),
      scopes,
      rateLimitPerMinute: options.rateLimitPerMinute ?? null,
    })
    await recordAuditEvent(tx, {
      workspaceId: workspace.id,
      actor,
      action: 'key.created',
      targetId: id,
      details: { name, prefix, scopes: [...scopes] },
    })
    return { id, key, prefix, workspaceCreated: workspace.created }
  })
}

/**
 * Revokes a key by id, recording who in the audit trail in the same transaction; false when it
 * was already revoked (then nothing is recorded).
 */
export async function revokeKey(
  sql: Sql,
  keyId: string,
  actor: Actor = COMMAND_LINE,
): Promise<boolean> {
  return sql.begin(async (tx) => {
    const revoked = await revokeApiKey(tx, keyId)
    if (!revoked) return false
    await recordAuditEvent(tx, {
      workspaceId: revoked.workspaceId,
      actor,
      action: 'key.revoked',
      targetId: keyId,
      details: { name: revoked.name, prefix: revoked.prefix },
    })
    return true
  })
}
