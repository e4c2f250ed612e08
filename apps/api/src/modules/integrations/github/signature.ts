// GitHub signs a webhook delivery with the hook's secret: `X-Hub-Signature-256` is `sha256=`
// and the hex HMAC-SHA256 of the raw body. Checked on the bytes as received (a parsed and
// re-serialised body would not match), compared in constant time.
//
// node:crypto, not Web Crypto: Bun's `crypto.subtle.verify` held the event loop about 50 µs for
// an 8.5 KB delivery (a sixth of the receiver's time under load, docs/benchmarks.md), where
// `createHmac` takes 6 µs. Deno and Node have both.

import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto'

const SIGNATURE = /^sha256=([0-9a-f]{64})$/

/** The HMAC-SHA256 key of a secret, to verify signatures with. */
export function hmacKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'))
}

/** Whether `header` is the signature of `body` with any of `secrets` (a rotated one in its grace period too). */
export function verifyGitHubSignature(
  secrets: string[],
  body: Uint8Array,
  header: string | null,
): boolean {
  return verifyGitHubSignatureWithKeys(secrets.map(hmacKey), body, header)
}

/** verifyGitHubSignature with the secrets' keys already made. */
export function verifyGitHubSignatureWithKeys(
  keys: KeyObject[],
  body: Uint8Array,
  header: string | null,
): boolean {
  const match = SIGNATURE.exec(header ?? '')
  if (!match) return false
  const signature = Buffer.from(match[1] as string, 'hex')
  let proved = false
  // Every key is tried, so the time taken does not say which one matched.
  for (const key of keys) {
    if (timingSafeEqual(createHmac('sha256', key).update(body).digest(), signature)) proved = true
  }
  return proved
}
