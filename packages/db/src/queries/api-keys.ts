import type { Scope } from '@shiplog/schema'
import type { Queryable, Sql } from '../client.ts'

/** Who a valid key speaks for, what it may do, and the quota it has. */
export interface KeyOwner {
  keyId: string
  workspaceId: string
  workspaceSlug: string
  scopes: Scope[]
  rateLimitPerMinute: number | null
}

/** The unrevoked key with this hash, if any. */
export async function findActiveKey(sql: Sql, keyHash: Buffer): Promise<KeyOwner | undefined> {
  const [row] = await sql<KeyOwner[]>`
    select k.id as "keyId", w.id::text as "workspaceId", w.slug as "workspaceSlug", k.scopes,
           k.rate_limit_per_minute as "rateLimitPerMinute"
      from api_keys k join workspaces w on w.id = k.workspace_id
     where k.key_hash = ${keyHash} and k.revoked_at is null`
  return row
}

/**
 * The first 8 bytes of every unrevoked key's hash, in hex: enough to tell a key that may exist from
 * a guess without a lookup per guess (a false match costs only the lookup it would have had).
 */
export async function listActiveKeyHashPrefixes(sql: Sql): Promise<string[]> {
  const rows = await sql<{ prefix: string }[]>`
    select encode(substring(key_hash from 1 for 8), 'hex') as prefix
      from api_keys where revoked_at is null`
  return rows.map((row) => row.prefix)
}

/** Records use of a key, at most about once a minute however busy the key is. */
export async function touchKeyLastUsed(sql: Sql, keyId: string): Promise<void> {
  await sql`
    update api_keys set last_used_at = now()
     where id = ${keyId} and (last_used_at is null or last_used_at < now() - interval '1 minute')`
}

/** What `keys create` stores: never the key itself. */
export interface NewApiKey {
  workspaceId: string
  name: string
  prefix: string
  keyHash: Buffer
  scopes: readonly Scope[]
  rateLimitPerMinute: number | null
}

/** Stores a new key's hash and returns its id. */
export async function insertApiKey(sql: Queryable, key: NewApiKey): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into api_keys (workspace_id, name, prefix, key_hash, scopes, rate_limit_per_minute)
    values (${key.workspaceId}, ${key.name}, ${key.prefix}, ${key.keyHash}, ${[...key.scopes]}::text[],
            ${key.rateLimitPerMinute})
    returning id`
  if (!row) throw new Error('the key was not stored')
  return row.id
}

/** A key as `keys list` shows it. */
export interface ApiKeySummary {
  id: string
  workspace: string
  name: string
  prefix: string
  scopes: Scope[]
  rateLimitPerMinute: number | null
  createdAt: Date
  lastUsedAt: Date | null
  revokedAt: Date | null
}

/** Every key, or those of one workspace, oldest first. */
export async function listApiKeys(sql: Sql, workspaceSlug?: string): Promise<ApiKeySummary[]> {
  return sql<ApiKeySummary[]>`
    select k.id, w.slug as workspace, k.name, k.prefix, k.scopes,
           k.rate_limit_per_minute as "rateLimitPerMinute",
           k.created_at as "createdAt", k.last_used_at as "lastUsedAt", k.revoked_at as "revokedAt"
      from api_keys k join workspaces w on w.id = k.workspace_id
     where ${workspaceSlug === undefined ? sql`true` : sql`w.slug = ${workspaceSlug}`}
     order by k.created_at, k.id`
}

/** Keys matching an id or a key prefix, so the CLI can refuse an ambiguous prefix. */
export async function findKeysByIdOrPrefix(sql: Sql, idOrPrefix: string): Promise<ApiKeySummary[]> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix)
  return sql<ApiKeySummary[]>`
    select k.id, w.slug as workspace, k.name, k.prefix, k.scopes,
           k.rate_limit_per_minute as "rateLimitPerMinute",
           k.created_at as "createdAt", k.last_used_at as "lastUsedAt", k.revoked_at as "revokedAt"
      from api_keys k join workspaces w on w.id = k.workspace_id
     where ${isUuid ? sql`k.id = ${idOrPrefix}` : sql`starts_with(k.prefix, ${idOrPrefix.slice(0, 16)})`}`
}

/** Revokes a key by id; returns what it was, or undefined when it was already revoked. */
export async function revokeApiKey(
  sql: Queryable,
  keyId: string,
): Promise<{ workspaceId: string; name: string; prefix: string } | undefined> {
  const [row] = await sql<{ workspaceId: string; name: string; prefix: string }[]>`
    update api_keys set revoked_at = now() where id = ${keyId} and revoked_at is null
    returning workspace_id::text as "workspaceId", name, prefix`
  return row
}
