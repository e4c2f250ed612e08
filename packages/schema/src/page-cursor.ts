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

/** Where a page of commits starts: strictly after this delivery (deployedAt, deployment, sha). */
export interface CommitCursor extends PageCursor {
  sha: string
}

const COMMIT_SHAPE = /^(.+)\.([0-9a-f]{40}|[0-9a-f]{64})$/

/** An opaque commit-page cursor: the last row's delivery and its commit. */
export function encodeCommitCursor(cursor: CommitCursor): string {
  return toBase64Url(`${cursor.deployedAtMicros}.${cursor.id}.${cursor.sha}`)
}

/** The commit cursor a client sent back, or undefined when this API could not have returned it. */
export function decodeCommitCursor(encoded: string): CommitCursor | undefined {
  if (!BASE64URL.test(encoded) || encoded.length % 4 === 1) return undefined
  const match = COMMIT_SHAPE.exec(atob(encoded.replaceAll('-', '+').replaceAll('_', '/')))
  if (!match) return undefined
  const delivery = decodeCursor(toBase64Url(match[1] as string))
  return delivery && { ...delivery, sha: match[2] as string }
}
