import { ShiplogError, ShiplogNetworkError } from './errors.ts'
import { readProblem } from './problem.ts'
import { backoffDelay, isRetryableStatus, parseRetryAfter } from './retry.ts'

/**
 * How every request of this client names it: the API records a deployment it sends as
 * `source: "cli"` (apps/api/src/modules/deployments/source.ts), whether the CLI, the GitHub
 * Action or the GitLab template sent it.
 */
const USER_AGENT = 'shiplog-client'

/** The subset of `fetch` the client calls, so any WHATWG-compatible fetch can be injected. */
export type FetchLike = (input: URL, init: RequestInit) => Promise<Response>

/** Waits `ms` milliseconds; injectable so tests can observe delays without spending them. */
export type Sleep = (ms: number) => Promise<void>

/** A retry about to be made, as `onRetry` is told of it. */
export interface Retry {
  method: string
  url: string
  /** The attempt about to be made: 2 for the first retry. */
  attempt: number
  /** How long until it is made, in milliseconds. */
  delayMs: number
  /** The 429 or 503 the last attempt got; undefined when it got no answer (`error` says why). */
  status?: number
  error?: unknown
  /** Since the first attempt, in milliseconds. */
  elapsedMs: number
  /** The retry budget: no retry starts later than this after the first attempt (may be Infinity). */
  retryForMs: number
  /** The most retries allowed (may be Infinity). */
  maxRetries: number
}

export interface TransportOptions {
  baseUrl: URL
  apiKey: string
  fetch: FetchLike
  maxRetries: number
  retryForMs: number
  sleep: Sleep
  now: () => number
  requestTimeoutMs: number
  onRetry?: (retry: Retry) => void
}

/** One logical request; `path` is relative to the base URL (no leading slash). */
export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  query?: URLSearchParams
  body?: string
  headers?: Record<string, string>
  /**
   * False for a POST that is not safe to repeat (no Idempotency-Key): a network failure may hide
   * that it was done, so it is reported instead of sent again. 429 and 503 are still retried:
   * they say nothing was done.
   */
  repeatable?: boolean
  /** A time (on the client's clock) after which no retry starts, when sooner than the budget. */
  retryUntil?: number
}

/**
 * Sends logical requests with the key, retrying 429, 503 and network failures (after
 * `Retry-After` when given, else with jittered backoff) until `maxRetries` retries are made or
 * `retryForMs` has passed since the first attempt, whichever comes first; a wait is cut short
 * rather than end past the budget, so the last attempt starts on time. Resolves with the first
 * 2xx response; throws `ShiplogError` for any other answer and `ShiplogNetworkError` when the
 * server never answered. The same body and headers go out on every attempt, so a POST carrying
 * an Idempotency-Key is safe to repeat.
 */
export function createTransport(options: TransportOptions) {
  const endpoint = (call: Call): URL => {
    const url = new URL(call.path, options.baseUrl)
    if (call.query) url.search = call.query.toString()
    return url
  }

  async function send(call: Call): Promise<Response> {
    const url = endpoint(call)
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      authorization: `Bearer ${options.apiKey}`,
      'user-agent': USER_AGENT,
      ...call.headers,
    }
    if (call.body !== undefined) headers['content-type'] = 'application/json'
    const started = options.now()
    const deadline = Math.min(started + options.retryForMs, call.retryUntil ?? Infinity)
    const tried = (attempt: number) => ({
      attempts: attempt + 1,
      elapsedMs: options.now() - started,
    })
    /** The wait before the next attempt, or undefined when no retry is left in count or time. */
    const nextWait = (attempt: number, wanted: number): number | undefined => {
      const left = deadline - options.now()
      if (attempt >= options.maxRetries || left <= 0) return undefined
      return Math.min(wanted, left)
    }
    const retry = async (
      attempt: number,
      delayMs: number,
      outcome: { status: number } | { error: unknown },
    ) => {
      options.onRetry?.({
        method: call.method,
        url: url.href,
        attempt: attempt + 2,
        delayMs,
        ...outcome,
        elapsedMs: options.now() - started,
        retryForMs: options.retryForMs,
        maxRetries: options.maxRetries,
      })
      await options.sleep(delayMs)
    }
    for (let attempt = 0; ; attempt++) {
      let response: Response
      try {
        response = await options.fetch(url, {
          method: call.method,
          headers,
          body: call.body ?? null,
          signal: AbortSignal.timeout(options.requestTimeoutMs),
        })
      } catch (error) {
        const wait =
          call.repeatable === false ? undefined : nextWait(attempt, backoffDelay(attempt))
        if (wait === undefined) {
          const { attempts, elapsedMs } = tried(attempt)
          throw new ShiplogNetworkError(call.method, url.href, attempts, error, elapsedMs)
        }
        await retry(attempt, wait, { error })
        continue
      }
      if (response.ok) return response
      if (isRetryableStatus(response.status)) {
        const asked = parseRetryAfter(response.headers.get('retry-after'), options.now())
        // "Retry now" (0, or a date past) gets our own backoff: with a budget in time rather than
        // a count, honouring it would send requests back to back until the budget ran out.
        const wait = nextWait(attempt, asked || backoffDelay(attempt))
        if (wait !== undefined) {
          // Unread bodies pin the connection in some runtimes (undici) until collected.
          await response.body?.cancel()
          await retry(attempt, wait, { status: response.status })
          continue
        }
      }
      throw new ShiplogError(await readProblem(response), tried(attempt))
    }
  }

  return { send, endpoint }
}
