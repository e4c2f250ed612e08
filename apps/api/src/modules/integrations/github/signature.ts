// GitHub signs a webhook delivery with the hook's secret: `X-Hub-Signature-256` is `sha256=`
// and the hex HMAC-SHA256 of the raw body. Checked on the bytes as received (a parsed and
// re-serialised body would not match), with Web Crypto's verify, which compares in constant time.

const SIGNATURE = /^sha256=([0-9a-f]{64})$/

function bytesOfHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2)
  for (let index = 0; index < bytes.length; index++) {
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16)
  }
  return bytes
}

/** The HMAC-SHA256 key of a secret, to verify signatures with. */
export function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  )
}

/** Whether `header` is the signature of `body` with any of `secrets` (a rotated one in its grace period too). */
export async function verifyGitHubSignature(
  secrets: string[],
  body: Uint8Array<ArrayBuffer>,
  header: string | null,
): Promise<boolean> {
  return verifyGitHubSignatureWithKeys(await Promise.all(secrets.map(hmacKey)), body, header)
}

/** verifyGitHubSignature with the secrets' keys already imported. */
export async function verifyGitHubSignatureWithKeys(
  keys: CryptoKey[],
  body: Uint8Array<ArrayBuffer>,
  header: string | null,
): Promise<boolean> {
  const match = SIGNATURE.exec(header ?? '')
  if (!match) return false
  const signature = bytesOfHex(match[1] as string)
  for (const key of keys) {
    if (await crypto.subtle.verify('HMAC', key, signature, body)) return true
  }
  return false
}
