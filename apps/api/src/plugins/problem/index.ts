import { isDatabaseUnavailable, isStatementCancelled } from '@shiplog/db/errors'
import { Elysia } from 'elysia'
import { HttpProblem, problemResponse, problems } from '../../kernel/problems.ts'

/**
 * The one place errors become responses: every error maps to a problem-details body, and nothing
 * a client sends can produce a 500.
 */
export function problemDetails(
  onUnexpected: (error: unknown) => void,
  methodsAt: (path: string) => readonly string[] = () => [],
) {
  return new Elysia({ name: 'problem-details' }).onError({ as: 'global' }, (context) => {
    const answer =
      context.code === 'NOT_FOUND'
        ? notFound(context.request, methodsAt)
        : answerFor(context.error, onUnexpected)
    // Elysia does not read the status of a Response an error hook returns: set it, so hooks
    // after the response (metrics, the request log) see what was sent.
    context.set.status = answer.status
    return problemResponse(answer, context.set.headers)
  })
}

// A known path asked with a method it does not take is a 405 naming the ones it does (RFC 9110
// §15.5.6), so a client learns it used the wrong method, not that the endpoint is missing.
function notFound(request: Request, methodsAt: (path: string) => readonly string[]) {
  const allowed = methodsAt(new URL(request.url).pathname)
  if (allowed.length > 0 && !allowed.includes(request.method)) {
    return problems.methodNotAllowed(request.method, allowed)
  }
  return problems.notFound('No such endpoint; see /docs.')
}

// What each error becomes: a problem the client can act on, or (for a bug) a logged 500. No
// route has Elysia parse or validate a body or query, so its PARSE and VALIDATION never occur.
function answerFor(error: unknown, onUnexpected: (error: unknown) => void) {
  if (error instanceof HttpProblem) return error
  // Any read or lookup that cannot reach Postgres: the client should retry; not a bug.
  if (isDatabaseUnavailable(error)) {
    return problems.unavailable('The database is unavailable right now; retry shortly.')
  }
  if (isStatementCancelled(error)) return problems.timeout()
  onUnexpected(error)
  return new HttpProblem(
    500,
    'internal',
    'Internal Server Error',
    'Something went wrong on our side; the request was not accepted. Retry it.',
  )
}
