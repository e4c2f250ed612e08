import type { TSchema } from '@sinclair/typebox'

/** The response headers the API sends, published under `components/headers`. */
export const HEADERS = {
  'RateLimit-Limit': {
    description: 'Capacity of the key’s token bucket: requests it may send in a burst',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: 'Requests the key may still send now (this replica’s estimate)',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the bucket is full again',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before sending the request again',
    schema: { type: 'integer', minimum: 0 },
  },
  'WWW-Authenticate': {
    description: 'Always `Bearer realm="shiplog"`: send the key as a bearer token',
    schema: { type: 'string' },
  },
  Location: {
    description: 'The deployment’s receipt, `/v1/deployments/{id}`: poll it to see it recorded',
    schema: { type: 'string', format: 'uri-reference' },
  },
} as const

export type HeaderName = keyof typeof HEADERS

/** One answer of a route: what it means, and its body (problem details for 4xx and 5xx). */
export interface Answer {
  description: string
  /** The JSON body of a 2xx; errors are always `Problem`. */
  body?: TSchema
  example?: unknown
  /** Headers besides those every answer of its kind carries (rate-limit ones on a 2xx). */
  headers?: readonly HeaderName[]
  /** Other forms of a 2xx's body, sent when the request's `Accept` prefers them: text, not JSON. */
  alternatives?: Record<string, { example?: string }>
}

/** A problem-details answer. */
export const problem = (description: string, example?: unknown): Answer =>
  example === undefined ? { description } : { description, example }

/** `429`: wait `Retry-After` seconds. */
export const rateLimited = (description: string): Answer => ({
  description,
  headers: ['Retry-After'],
})

/** `503`: nothing changed; retry after `Retry-After` seconds. */
export const unavailable = (description: string): Answer => ({
  description,
  headers: ['Retry-After'],
})

/** The errors every read may answer besides 401 and 403. */
export const READ_ERRORS = {
  422: problem('A bad query parameter: every one is listed in `errors`'),
  429: rateLimited(
    'The key’s quota is spent, or the key already has its reads running (2 at once by default); retry after `Retry-After`',
  ),
  503: unavailable(
    'The database is unavailable, or the read took too long and was stopped (`/problems/timeout`); nothing changed; retry after `Retry-After`',
  ),
}

/** The 429 and 503 of a write that is not queued. */
export const WRITE_ERRORS = {
  429: rateLimited('The key’s quota is spent; retry after `Retry-After`'),
  503: unavailable('The database is unavailable; nothing changed; retry after `Retry-After`'),
}
