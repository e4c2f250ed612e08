// Flux's notification-controller proves a delivery one of two ways: a `generic-hmac` Provider
// signs the body it posts (`X-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, its Secret's
// `token` as the key: GitHub's scheme under another header, checked by GitHub's verifier), a
// `generic` one sends whatever headers its Secret lists, here `Authorization: Bearer <secret>`.
// Both are checked on the bytes as received, in constant time.

import { createHash, type KeyObject, timingSafeEqual } from 'node:crypto'
import { verifyGitHubSignatureWithKeys } from '../github/signature.ts'

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest()

/** Whether the delivery carries the HMAC of `body`, or the secret as a bearer, for one of `keys`. */
export function verifyFluxProof(
  keys: KeyObject[],
  body: Uint8Array,
  given: { signature: string | null; bearer: string | null },
): boolean {
  // Flux writes the hex in lower case; the prefix and the hex are taken in any case.
  const signature = given.signature?.toLowerCase() ?? null
  let proved = signature !== null && verifyGitHubSignatureWithKeys(keys, body, signature)
  // Compared as SHA-256 digests: equal lengths, whatever was sent. Every key is tried whole, so
  // the time taken does not say which one matched.
  const bearer = given.bearer === null ? undefined : digest(Buffer.from(given.bearer, 'utf8'))
  for (const key of keys) {
    if (bearer && timingSafeEqual(digest(key.export()), bearer)) proved = true
  }
  return proved
}
