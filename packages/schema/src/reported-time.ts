import type { Instant } from './date-time.ts'
import { invalid, type Outcome } from './text.ts'

/**
 * How far ahead of the server's clock a time a client reports (a deployment's `deployedAt`, an
 * incident's `startedAt` or `resolvedAt`) may be: clock skew between the client and the server,
 * never a plan for later.
 */
export const REPORTED_TIME_MAX_FUTURE_MS = 5 * 60 * 1000

const MAX_FUTURE_MICROS = BigInt(REPORTED_TIME_MAX_FUTURE_MS) * 1000n
const TOO_FAR_AHEAD = invalid(
  `must not be more than ${REPORTED_TIME_MAX_FUTURE_MS / 60_000} minutes in the future`,
)

/** `instant`, or why it is refused: more than the clock skew after `nowMicros`. */
export function notAhead(instant: Instant, nowMicros: bigint): Outcome<Instant> {
  return instant.micros > nowMicros + MAX_FUTURE_MICROS ? TOO_FAR_AHEAD : instant
}
