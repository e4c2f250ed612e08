import { type FieldError, Problem } from '@shiplog/schema/problem'
import { Value } from '@sinclair/typebox/value'

const MAX_DETAIL = 300

/**
 * The RFC 9457 problem of an error response. Shiplog always sends one, but a proxy or load
 * balancer in front of it may answer with HTML or nothing; that becomes a problem too, so callers
 * handle a single shape.
 */
export async function readProblem(response: Response): Promise<Problem> {
  const text = await response.text().catch(() => '')
  try {
    const body: unknown = JSON.parse(text)
    if (Value.Check(Problem, body)) return body
  } catch {
    // Not JSON: described below from the status and whatever text came.
  }
  const snippet = text.replace(/\s+/g, ' ').trim().slice(0, MAX_DETAIL)
  return {
    type: 'about:blank',
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    detail: snippet || `The server answered ${response.status} without a problem description.`,
  }
}

/** One field error as a phrase: "commitHash must be …". */
export function describeFieldError(error: FieldError): string {
  return `${error.field} ${error.message}`
}

/**
 * A one-line summary for `Error.message`: the field errors when there are any (they say exactly
 * what to fix), otherwise the detail.
 */
export function summarizeProblem(problem: Problem): string {
  const errors = problem.errors ?? []
  const what = errors.length > 0 ? errors.map(describeFieldError).join('; ') : problem.detail
  return `${problem.status} ${problem.title}: ${what}`
}

/**
 * The problem for a terminal: the detail, then each field error on its own line, with `label`
 * naming a field the way the reader typed it (a CLI flag rather than the JSON name).
 */
export function formatProblemLines(
  problem: Problem,
  label: (field: string) => string = (field) => field,
): string[] {
  const lines = [`${problem.status} ${problem.title}: ${problem.detail}`]
  for (const error of problem.errors ?? []) lines.push(`  ${label(error.field)}: ${error.message}`)
  return lines
}
