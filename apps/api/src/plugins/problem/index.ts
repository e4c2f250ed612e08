import { isDatabaseUnavailable } from '@shiplog/db/errors'
import type { FieldError } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { HttpProblem, problems } from './http-problem.ts'

export { HttpProblem, problems } from './http-problem.ts'

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

interface ValidationIssue {
  path?: string
  message?: string
}

function fieldErrorsOf(error: unknown): FieldError[] {
  const all = (error as { all?: ValidationIssue[] }).all ?? []
  const byField = new Map<string, string>()
  for (const issue of all) {
    const field = (issue.path ?? '').replace(/^\//, '') || 'query'
    if (!byField.has(field)) byField.set(field, issue.message ?? 'is invalid')
  }
  return [...byField].map(([field, message]) => ({ field, message }))
}

/** Maps every error to a problem-details response; nothing a client sends can produce a 500. */
export function problemDetails(onUnexpected: (error: unknown) => void) {
  return new Elysia({ name: 'problem-details' }).onError(
    { as: 'global' },
    ({ code, error, set }) => {
      if (error instanceof HttpProblem) return problemResponse(error, set.headers)
      switch (code) {
        case 'NOT_FOUND':
          return problemResponse(problems.notFound('No such endpoint; see /docs.'), set.headers)
        case 'VALIDATION':
          return problemResponse(problems.validation(fieldErrorsOf(error)), set.headers)
        case 'PARSE':
          return problemResponse(
            problems.validation([{ field: 'body', message: 'must be a JSON object' }]),
            set.headers,
          )
        default:
          // Any read or lookup that cannot reach Postgres: the client should retry; not a bug.
          if (isDatabaseUnavailable(error)) {
            return problemResponse(
              problems.unavailable('The database is unavailable right now; retry shortly.'),
              set.headers,
            )
          }
          onUnexpected(error)
          return problemResponse(
            new HttpProblem(
              500,
              'internal',
              'Internal Server Error',
              'Something went wrong on our side; the request was not accepted. Retry it.',
            ),
            set.headers,
          )
      }
    },
  )
}
