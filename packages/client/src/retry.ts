/** Statuses that say "not now" rather than "not this request": worth the same request again. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 503
}

/**
 * The wait a `Retry-After` header asks for, in milliseconds, or undefined when it is absent or
 * unreadable (the caller then backs off on its own). RFC 9110 allows delay-seconds or an
 * HTTP-date; Shiplog sends seconds, but a proxy in front of it may send a date.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  // Date.parse accepts far more than IMF-fixdate; requiring the weekday and GMT keeps a garbled
  // number such as "1.5" from being read as a date.
  if (!/^[A-Za-z]{3}, .+ GMT$/.test(trimmed)) return undefined
  const at = Date.parse(trimmed)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}

const BASE_DELAY_MS = 500
const MAX_DELAY_MS = 30_000

/**
 * Exponential backoff with jitter for retries the server gave no `Retry-After` for (network
 * errors, a proxy's 503): many pipelines failing at once must not come back in lockstep.
 * `attempt` counts from 0; the result lies between half and all of 500 ms × 2^attempt (≤ 30 s).
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
