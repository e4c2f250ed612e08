import type { DeploymentCursor } from '@shiplog/db/queries/deployments'

const SHAPE = /^(-?\d{1,19})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/

/** An opaque page cursor: the last row's `deployedAt` in microseconds and its id. */
export function encodeCursor(cursor: DeploymentCursor): string {
  return Buffer.from(`${cursor.deployedAtMicros}.${cursor.id}`).toString('base64url')
}

/** The cursor a client sent back, or undefined when it is not one of ours. */
export function decodeCursor(encoded: string): DeploymentCursor | undefined {
  const match = SHAPE.exec(Buffer.from(encoded, 'base64url').toString('latin1'))
  if (!match) return undefined
  return { deployedAtMicros: BigInt(match[1] as string), id: match[2] as string }
}
