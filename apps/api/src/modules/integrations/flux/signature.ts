// Flux's notification-controller proves a delivery one of two ways: a `generic-hmac` Provider
// signs the body it posts (`X-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, its Secret's
// `token` as the key), a `generic` one sends whatever headers its Secret lists, here
// `Authorization: Bearer <secret>`. Both are checked on the bytes as received, in constant time.

import { createHash, createHmac, type KeyObject, timingSafeEqual } from 'node:crypto'

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest()

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i

/** Whether the delivery carries the HMAC of `body`, or the secret as a bearer, for one of `keys`. */
export function verifyFluxProof(
  keys: KeyObject[],
  body: Uint8Array,
  given: { signature: string | null; bearer: string | null },
): boolean {
  let proved = false
  const signature = SIGNATURE.exec(given.signature ?? '')
  const signed = signature ? Buffer.from(signature[1] as string, 'hex') : undefined
  // Compared as SHA-256 digests: equal lengths, whatever was sent.
  const bearer = given.bearer === null ? undefined : digest(Buffer.from(given.bearer, 'utf8'))
  // Every key is tried whole, so the time taken does not say which one matched.
  for (const key of keys) {
    if (signed && timingSafeEqual(createHmac('sha256', key).update(body).digest(), signed)) {
      proved = true
    }
    if (bearer && timingSafeEqual(digest(key.export()), bearer)) proved = true
  }
  return proved
}
