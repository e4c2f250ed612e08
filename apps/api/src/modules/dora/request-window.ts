import { EARLIEST_MICROS, type Instant, instantFromDate, instantFromMicros } from '@shiplog/schema'
import { problems } from '../../kernel/problems.ts'

/**
 * The window [since, until) of a metrics request: `until` defaults to now and `since` to
 * `defaultSpan` before it (never before year 1); a 422 when since is not before until, or the
 * window is longer than `maxSpan` (`tooLong` says what to do then).
 */
export function windowOf(
  query: { since?: Instant; until?: Instant },
  limits: { defaultSpan: bigint; maxSpan: bigint; tooLong: string },
): { since: Instant; until: Instant } {
  const until = query.until ?? instantFromDate(new Date())
  const defaultStart = until.micros - limits.defaultSpan
  // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
  const defaultSince = defaultStart > EARLIEST_MICROS ? defaultStart : EARLIEST_MICROS
  const since = query.since ?? instantFromMicros(defaultSince)
  if (since.micros >= until.micros) {
    throw problems.validation([
      { field: 'since', message: 'must be before until (since is inclusive, until exclusive)' },
    ])
  }
  if (until.micros - since.micros > limits.maxSpan) {
    throw problems.validation([{ field: 'since', message: limits.tooLong }])
  }
  return { since, until }
}
