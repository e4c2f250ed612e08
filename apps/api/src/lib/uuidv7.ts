/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds then random bits, so ids sort by creation
 * time and index well. Built on Web Crypto to run the same in Bun, Node and Deno.
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  let millis = now
  for (let index = 5; index >= 0; index--) {
    bytes[index] = millis % 256
    millis = Math.floor(millis / 256)
  }
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
