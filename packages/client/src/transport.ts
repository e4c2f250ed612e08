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

export interface TransportOptions {
  baseUrl: URL
  apiKey: string
  fetch: FetchLike
  maxRetries: number
  sleep: Sleep
  requestTimeoutMs: number
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
}

/**
 * Sends logical requests with the key, retrying 429, 503 and network failures (after
 * `Retry-After` when given, else with jittered backoff) up to `maxRetries` times. Resolves with
 * the first 2xx response; throws `ShiplogError` for any other answer and `ShiplogNetworkError`
 * when the server never answered. The same body and headers go out on every attempt, so a POST
 * carrying an Idempotency-Key is safe to repeat.
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
    for (let attempt = 0; ; attempt++) {
      const retriesLeft = attempt < options.maxRetries
      let response: Response
      try {
        response = await options.fetch(url, {
          method: call.method,
          headers,
          body: call.body ?? null,
          signal: AbortSignal.timeout(options.requestTimeoutMs),
        })
      } catch (error) {
        if (!retriesLeft || call.repeatable === false) {
          throw new ShiplogNetworkError(call.method, url.href, attempt + 1, error)
        }
        await options.sleep(backoffDelay(attempt))
        continue
      }
      if (response.ok) return response
      if (isRetryableStatus(response.status) && retriesLeft) {
        const asked = parseRetryAfter(response.headers.get('retry-after'), Date.now())
        // Unread bodies pin the connection in some runtimes (undici) until collected.
        await response.body?.cancel()
        await options.sleep(asked ?? backoffDelay(attempt))
        continue
      }
      throw new ShiplogError(await readProblem(response))
    }
  }

  return { send, endpoint }
}
