// How a delivery's body is kept: its bytes, raw-DEFLATE compressed (level 1) by the receiver
// before they go to Postgres. A GitHub delivery is 7 to 13 KB of JSON; compressed it is a fifth
// of that, small enough to stay in its row instead of five TOAST chunks, and the bytes the API
// writes to Postgres and Postgres to its WAL shrink alike. Postgres's own compression (pglz, or
// LZ4 where built with it) costs more and saves the API nothing (docs/benchmarks.md, receivers).
// A body lives from receipt until the worker has read it; only the worker inflates it.

import { deflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib'

// Bun's own binding takes a third less time than its node:zlib one, which builds a stream per
// call; the output is the same raw DEFLATE. Deno and Node use node:zlib.
const bun = (
  globalThis as { Bun?: { deflateSync(data: Uint8Array, options: { level: number }): Uint8Array } }
).Bun

/** Above this a body is compressed off the event loop: a 25 MiB push would hold it 100 ms. */
const INLINE_LIMIT_BYTES = 256 * 1024

const LEVEL = 1

/** The stored form of a body's bytes. */
export function deflateBody(bytes: Uint8Array): Promise<Uint8Array> {
  if (bytes.byteLength > INLINE_LIMIT_BYTES) {
    return new Promise((resolve, reject) =>
      deflateRaw(bytes, { level: LEVEL }, (error, out) => (error ? reject(error) : resolve(out))),
    )
  }
  return Promise.resolve(
    bun ? bun.deflateSync(bytes, { level: LEVEL }) : deflateRawSync(bytes, { level: LEVEL }),
  )
}

/** A stored body's text (the receiver checked its bytes are UTF-8). */
export function inflateBody(stored: Uint8Array): string {
  return new TextDecoder().decode(inflateRawSync(stored))
}
