// Secrets an HMAC needs in the clear (GitHub's) are kept sealed: AES-256-GCM under
// INTEGRATION_SEALING_KEY, a random 12-byte nonce ahead of each ciphertext. A database dump alone
// then forges nothing. The key never leaves this object and is never logged.

const NONCE_BYTES = 12

/** Reads INTEGRATION_SEALING_KEY: 32 bytes in base64 or base64url; undefined for anything else. */
export function sealingKeyBytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  const normal = text.trim().replace(/-/g, '+').replace(/_/g, '/')
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(normal)) return undefined
  const binary = atob(normal.endsWith('=') ? normal : `${normal}=`)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes.length === 32 ? bytes : undefined
}

export class Sealer {
  private readonly key: Promise<CryptoKey>

  constructor(keyBytes: Uint8Array<ArrayBuffer>) {
    this.key = crypto.subtle.importKey('raw', keyBytes, 'AES-GCM', false, ['encrypt', 'decrypt'])
  }

  async seal(secret: string): Promise<Uint8Array> {
    const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES))
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: nonce },
      await this.key,
      new TextEncoder().encode(secret),
    )
    const out = new Uint8Array(NONCE_BYTES + sealed.byteLength)
    out.set(nonce)
    out.set(new Uint8Array(sealed), NONCE_BYTES)
    return out
  }

  /** The secret, or undefined when it was sealed under another key (or altered). */
  async open(sealed: Uint8Array): Promise<string | undefined> {
    try {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: sealed.slice(0, NONCE_BYTES) },
        await this.key,
        sealed.slice(NONCE_BYTES),
      )
      return new TextDecoder().decode(plain)
    } catch {
      return undefined
    }
  }
}
