import { createHash } from 'node:crypto'
import { hashApiKey, looksLikeApiKey } from '@shiplog/db/api-key'
import type { Sql } from '@shiplog/db/client'
import {
  findActiveKey,
  type KeyOwner,
  listActiveKeyHashPrefixes,
  touchKeyLastUsed,
} from '@shiplog/db/queries/api-keys'
import { KeyDirectory } from './key-directory.ts'

/** How long a lookup is trusted; a revoked key stops working on every replica within this. */
export const KEY_CACHE_TTL_MS = 2_000
const MAX_CACHED_KEYS = 10_000
const LAST_USED_INTERVAL_MS = 60_000

// Keys are cached under their digest, never their plaintext.
const cacheKeyOf = (key: string) => createHash('sha256').update(key).digest('base64')

interface CachedLookup {
  owner: KeyOwner | undefined
  expiresAt: number
}

/**
 * Verifies bearer keys against their stored hashes, caching each answer for two seconds so a busy
 * key costs one lookup per replica every two seconds, not one per request.
 */
export class KeyStore {
  private readonly cache = new Map<string, CachedLookup>()
  private readonly pending = new Map<string, Promise<KeyOwner | undefined>>()
  private readonly lastTouched = new Map<string, number>()
  private readonly directory: KeyDirectory

  constructor(
    private readonly sql: Sql,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.directory = new KeyDirectory(() => listActiveKeyHashPrefixes(sql), 1_000, now)
  }

  /** The owner of a key from cache alone: undefined when unknown, invalid or not cached. */
  cachedOwner(key: string): KeyOwner | undefined {
    if (!looksLikeApiKey(key)) return undefined
    const cached = this.cache.get(cacheKeyOf(key))
    const now = this.now()
    if (!cached?.owner || cached.expiresAt <= now) return undefined
    this.touch(cached.owner.keyId, now)
    return cached.owner
  }

  /**
   * True when a lookup could find this key: it has a key's shape and was not just found invalid.
   * Anything else is refused from memory.
   */
  mightBeValid(key: string): boolean {
    if (!looksLikeApiKey(key)) return false
    const cached = this.cache.get(cacheKeyOf(key))
    return !cached || cached.owner !== undefined || cached.expiresAt <= this.now()
  }

  /** False when no active key has this key's hash: a guess, answered without a lookup. */
  mayExist(key: string): Promise<boolean> {
    return this.directory.mayExist(hashApiKey(key))
  }

  /** The owner of a key, or undefined for a malformed, unknown or revoked key. */
  async verify(key: string): Promise<KeyOwner | undefined> {
    if (!looksLikeApiKey(key)) return undefined
    const cacheKey = cacheKeyOf(key)
    const cached = this.cache.get(cacheKey)
    const owner =
      cached && cached.expiresAt > this.now()
        ? cached.owner
        : await this.lookUp(cacheKey, hashApiKey(key))
    if (owner) this.touch(owner.keyId, this.now())
    return owner
  }

  private lookUp(cacheKey: string, hash: Buffer): Promise<KeyOwner | undefined> {
    const inFlight = this.pending.get(cacheKey)
    if (inFlight) return inFlight
    const lookup = findActiveKey(this.sql, hash)
      .then((owner) => {
        if (this.cache.size >= MAX_CACHED_KEYS) this.evictOldest()
        this.cache.set(cacheKey, { owner, expiresAt: this.now() + KEY_CACHE_TTL_MS })
        return owner
      })
      .finally(() => this.pending.delete(cacheKey))
    this.pending.set(cacheKey, lookup)
    return lookup
  }

  private evictOldest(): void {
    const oldest = this.cache.keys().next()
    if (!oldest.done) this.cache.delete(oldest.value)
  }

  private touch(keyId: string, now: number): void {
    const last = this.lastTouched.get(keyId) ?? 0
    if (now - last < LAST_USED_INTERVAL_MS) return
    this.lastTouched.set(keyId, now)
    touchKeyLastUsed(this.sql, keyId).catch(this.onError)
  }
}
