import { describeDuration } from './duration.ts'
import { networkReason } from './errors.ts'
import type { Retry } from './transport.ts'

const STATUS_TEXT: Readonly<Record<number, string>> = {
  429: 'Too Many Requests',
  503: 'Service Unavailable',
}

/**
 * A retry as one line of a pipeline's log, so that a step slowed down by an outage says why:
 * `Shiplog answered 503 Service Unavailable; retrying in 2 s (attempt 2, giving up after 120 s)`.
 */
export function describeRetry(retry: Retry): string {
  const what =
    retry.status === undefined
      ? `Could not reach Shiplog (${networkReason(retry.error)})`
      : `Shiplog answered ${retry.status} ${STATUS_TEXT[retry.status] ?? ''}`.trimEnd()
  const bounded = Number.isFinite(retry.maxRetries)
  const attempt = `attempt ${retry.attempt}${bounded ? ` of ${retry.maxRetries + 1}` : ''}`
  const limit = Number.isFinite(retry.retryForMs)
    ? `, giving up after ${describeDuration(retry.retryForMs)}`
    : ''
  return `${what}; retrying in ${describeDuration(retry.delayMs)} (${attempt}${limit})`
}
