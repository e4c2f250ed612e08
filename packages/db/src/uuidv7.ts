const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

/**
 * Makes UUIDv7s: 48 bits of Unix milliseconds, a counter, then random bits. RFC 9562 §6.2 method
 * 1: a 12-bit counter in rand_a keeps ids increasing even within a millisecond, so id order is
 * the order they were made; it starts at a random value each millisecond and borrows the next
 * millisecond if it runs out. Built on Web Crypto, so it runs the same in Bun, Node and Deno.
 */
export function createUuidV7(): (now?: number) => string {
  let lastMs = 0
  let counter = 0
  return (now = Date.now()) => {
    const bytes = crypto.getRandomValues(new Uint8Array(16))
    if (now > lastMs) {
      lastMs = now
      counter = ((bytes[6] as number) & 0x07) * 256 + (bytes[7] as number)
    } else if (++counter > 0xfff) {
      lastMs++
      counter = 0
    }
    const high = Math.floor(lastMs / 0x1_0000_0000)
    const low = lastMs >>> 0
    bytes[0] = (high >>> 8) & 0xff
    bytes[1] = high & 0xff
    bytes[2] = low >>> 24
    bytes[3] = (low >>> 16) & 0xff
    bytes[4] = (low >>> 8) & 0xff
    bytes[5] = low & 0xff
    bytes[6] = 0x70 | (counter >>> 8)
    bytes[7] = counter & 0xff
    bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80
    let id = ''
    for (let index = 0; index < 16; index++) {
      if (index === 4 || index === 6 || index === 8 || index === 10) id += '-'
      id += HEX[bytes[index] as number]
    }
    return id
  }
}

/** This process's id generator: ids it makes sort in the order they were made. */
export const uuidv7 = createUuidV7()
