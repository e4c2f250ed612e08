/**
 * A fresh Idempotency-Key for one logical create call. It only has to be unique, not secret:
 * Node 18 has no global Web Crypto, so fall back to Math.random there rather than fail.
 */
export function newIdempotencyKey(): string {
  const webCrypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto
  if (webCrypto?.randomUUID) return webCrypto.randomUUID()
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (char) => {
    const nibble = Math.floor(Math.random() * 16)
    return (char === 'x' ? nibble : (nibble & 0x3) | 0x8).toString(16)
  })
}
