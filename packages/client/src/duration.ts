/**
 * A wait as a person reads it in a log: tenths of a second under ten seconds (a backoff of
 * 437 ms is "0.4 s", not "0 s"), whole seconds above.
 */
export function describeDuration(ms: number): string {
  const seconds = ms / 1000
  return `${seconds < 10 ? Number(seconds.toFixed(1)) : Math.round(seconds)} s`
}
