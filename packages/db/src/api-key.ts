import { createHash, randomBytes } from 'node:crypto'

const PREFIX = 'shiplog_'
// 32 random bytes in base64url are 43 characters; anything else is not one of our keys.
const KEY_SHAPE = /^shiplog_[A-Za-z0-9_-]{43}$/

/** A new key: `shiplog_` and 32 random bytes in base64url, so secret scanners can spot a leak. */
export function generateApiKey(): string {
  return PREFIX + randomBytes(32).toString('base64url')
}

/** True when the string has the shape of a key; anything else is refused without a lookup. */
export function looksLikeApiKey(candidate: string): boolean {
  return KEY_SHAPE.test(candidate)
}

/** The only form of a key we store. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key).digest()
}

/** The part of a key that is safe to show and to search by: `shiplog_` and 8 characters. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, PREFIX.length + 8)
}
