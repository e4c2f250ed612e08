import { EARLIEST_MICROS, LATEST_MICROS } from './date-time.ts'
import { UUID } from './uuid.ts'

/** Where a page of deployments starts: strictly older than this `deployedAt` (µs) and id. */
export interface PageCursor {
  deployedAtMicros: bigint
  id: string
}

const SHAPE = /^(-?\d{1,19})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/
const BASE64URL = /^[A-Za-z0-9_-]*$/

// btoa/atob rather than Buffer: the schema package runs in browsers and Deno too.
const toBase64Url = (text: string) =>
  btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')

/** An opaque page cursor: the last row's `deployedAt` in microseconds and its id. */
export function encodeCursor(cursor: PageCursor): string {
  return toBase64Url(`${cursor.deployedAtMicros}.${cursor.id}`)
}

/**
 * The cursor a client sent back, or undefined when it is not one this API could have returned:
 * malformed, or pointing outside the instants Shiplog stores (a forged number).
 */
export function decodeCursor(encoded: string): PageCursor | undefined {
  if (!BASE64URL.test(encoded) || encoded.length % 4 === 1) return undefined
  const match = SHAPE.exec(atob(encoded.replaceAll('-', '+').replaceAll('_', '/')))
  if (!match) return undefined
  const deployedAtMicros = BigInt(match[1] as string)
  if (deployedAtMicros < EARLIEST_MICROS || deployedAtMicros > LATEST_MICROS) return undefined
  const id = match[2] as string
  return UUID.test(id) ? { deployedAtMicros, id } : undefined
}
