import type { FieldError, Problem } from '@shiplog/schema'

/** An error that becomes an RFC 9457 problem response: thrown anywhere, rendered in one place. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    readonly title: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail)
  }

  /** The JSON body; `type` is a relative reference documented in docs/api.md#errors. */
  toBody(): Problem {
    const body: Problem = {
      type: `/problems/${this.slug}`,
      title: this.title,
      status: this.status,
      detail: this.detail,
    }
    if (this.errors) body.errors = this.errors
    return body
  }
}

/** The problems the API answers with, each with a detail that says what to do. */
export const problems = {
  unauthorized: (detail: string) =>
    new HttpProblem(401, 'unauthorized', 'Unauthorized', detail, undefined, {
      'WWW-Authenticate': 'Bearer realm="shiplog"',
    }),
  forbidden: (detail: string) => new HttpProblem(403, 'forbidden', 'Forbidden', detail),
  rateLimited: (retryAfterSeconds: number, detail: string) =>
    new HttpProblem(429, 'rate-limited', 'Too Many Requests', detail, undefined, {
      'Retry-After': String(retryAfterSeconds),
    }),
  validation: (errors: FieldError[], detail?: string) =>
    new HttpProblem(
      422,
      'validation-failed',
      'Validation failed',
      detail ??
        `The request has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}: ` +
          'fix every one listed in errors and send it again.',
      errors,
    ),
  bodyTooLarge: (maxBytes: number) =>
    new HttpProblem(
      413,
      'body-too-large',
      'Content Too Large',
      `The request body is larger than ${maxBytes} bytes, the most this endpoint takes.`,
    ),
  bodyUnreadable: () =>
    new HttpProblem(
      400,
      'body-unreadable',
      'Bad Request',
      'The request body could not be read: the connection closed before it was complete. Send the request again.',
    ),
  bodyTimeout: (seconds: number) =>
    new HttpProblem(
      408,
      'body-timeout',
      'Request Timeout',
      `The request body did not arrive within ${seconds} seconds; send it in one go.`,
      undefined,
      { Connection: 'close' },
    ),
  unavailable: (detail: string, retryAfterSeconds = 2) =>
    new HttpProblem(503, 'unavailable', 'Service Unavailable', detail, undefined, {
      'Retry-After': String(retryAfterSeconds),
    }),
  outcomeUnknown: () =>
    new HttpProblem(
      503,
      'outcome-unknown',
      'Service Unavailable',
      'The database became unreachable while this deployment was being queued, so whether it was ' +
        'accepted is not known. Retry with the same Idempotency-Key: it will be recorded once.',
      undefined,
      { 'Retry-After': '5' },
    ),
  notFound: (detail: string) => new HttpProblem(404, 'not-found', 'Not Found', detail),
  methodNotAllowed: (method: string, allowed: readonly string[]) =>
    new HttpProblem(
      405,
      'method-not-allowed',
      'Method Not Allowed',
      `This path does not take ${method}; it takes ${allowed.join(', ')}.`,
      undefined,
      { Allow: allowed.join(', ') },
    ),
  conflict: (detail: string) => new HttpProblem(409, 'conflict', 'Conflict', detail),
  timeout: () =>
    new HttpProblem(
      503,
      'timeout',
      'Service Unavailable',
      'The request took too long and was stopped; nothing was changed. Retry later, or ask for ' +
        'less: a shorter since/until window, one repository, a smaller limit.',
      undefined,
      { 'Retry-After': '5' },
    ),
}

const PROBLEM_JSON = 'application/problem+json'

/** Renders a problem, keeping headers already set for this request (rate-limit, request id). */
export function problemResponse(
  problem: HttpProblem,
  baseHeaders: Record<string, unknown> = {},
): Response {
  const headers = new Headers()
  for (const [name, value] of Object.entries(baseHeaders)) {
    if (typeof value === 'string') headers.set(name, value)
    else if (typeof value === 'number') headers.set(name, String(value))
  }
  for (const [name, value] of Object.entries(problem.headers)) headers.set(name, value)
  headers.set('Content-Type', PROBLEM_JSON)
  return new Response(JSON.stringify(problem.toBody()), { status: problem.status, headers })
}
