import type { DeploymentStatus } from '@shiplog/schema'
import type { FieldError, Problem } from '@shiplog/schema/problem'
import { describeDuration } from './duration.ts'
import { summarizeProblem } from './problem.ts'

/** How many requests a call sent, and over how long (first request to final outcome). */
export interface Attempts {
  attempts: number
  elapsedMs: number
}

const ONE_ATTEMPT: Attempts = { attempts: 1, elapsedMs: 0 }

/** "9 attempts over 120 s", or "1 attempt" when nothing was retried. */
const describeAttempts = ({ attempts, elapsedMs }: Attempts) =>
  attempts === 1 ? '1 attempt' : `${attempts} attempts over ${describeDuration(elapsedMs)}`

/**
 * Why a request got no answer, in a few words: the system's error code (`ECONNREFUSED`) where the
 * runtime gives one (Bun on the error, Node's undici on its cause, behind "fetch failed"), else
 * the innermost message (undici's own codes, `UND_ERR_SOCKET`, say less than "other side closed").
 */
export function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  if (error.name === 'TimeoutError') return 'no answer in time'
  const cause = error.cause instanceof Error ? error.cause : undefined
  for (const code of [(error as { code?: unknown }).code, (cause as { code?: unknown })?.code]) {
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code
  }
  return cause?.message ?? error.message
}

/** The API answered with an error: its HTTP status and RFC 9457 problem, readable as a message. */
export class ShiplogError extends Error {
  override readonly name = 'ShiplogError'
  readonly status: number
  /** The problem `type`, e.g. `/problems/validation-failed`, to branch on rather than the text. */
  readonly type: string
  readonly problem: Problem
  /** Every invalid field the API listed; empty for errors that are not about fields. */
  readonly fieldErrors: FieldError[]
  /** Requests sent for this answer: more than 1 when 429s, 503s or network failures came first. */
  readonly attempts: number
  /** From the first request to this answer, in milliseconds. */
  readonly elapsedMs: number

  constructor(problem: Problem, tried: Attempts = ONE_ATTEMPT) {
    const retried = tried.attempts > 1 ? ` (after ${describeAttempts(tried)})` : ''
    super(summarizeProblem(problem) + retried)
    this.status = problem.status
    this.type = problem.type
    this.problem = problem
    this.fieldErrors = problem.errors ?? []
    this.attempts = tried.attempts
    this.elapsedMs = tried.elapsedMs
  }
}

/** The API could not be reached at all (DNS, refused connection, timeout), even after retrying. */
export class ShiplogNetworkError extends Error {
  override readonly name = 'ShiplogNetworkError'

  constructor(
    readonly method: string,
    readonly url: string,
    readonly attempts: number,
    cause: unknown,
    /** From the first request to the last failure, in milliseconds. */
    readonly elapsedMs = 0,
  ) {
    // Node's fetch says only "fetch failed"; what failed is its cause ("connect ECONNREFUSED …").
    const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause : undefined
    const reason =
      cause instanceof Error ? cause.message + (inner ? `: ${inner.message}` : '') : String(cause)
    super(
      `Could not reach Shiplog (${method} ${url}) in ${describeAttempts({ attempts, elapsedMs })}: ${reason}`,
      { cause },
    )
  }
}

/** The deployment was accepted but could not be recorded: every attempt of the worker failed. */
export class DeploymentFailedError extends Error {
  override readonly name = 'DeploymentFailedError'
  readonly reason: string

  constructor(readonly deployment: DeploymentStatus) {
    const failure = deployment.failure
    const reason = failure?.reason ?? 'no reason was given'
    const attempts = failure
      ? ` after ${failure.attempts} attempt${failure.attempts === 1 ? '' : 's'}`
      : ''
    super(`Deployment ${deployment.id} failed${attempts}: ${reason}`)
    this.reason = reason
  }
}

/** `waitUntilRecorded` gave up: the deployment was still queued (e.g. being retried) at the deadline. */
export class DeploymentWaitTimeoutError extends Error {
  override readonly name = 'DeploymentWaitTimeoutError'

  constructor(
    readonly deployment: DeploymentStatus,
    readonly timeoutMs: number,
  ) {
    super(
      `Deployment ${deployment.id} was still ${deployment.status} after ${timeoutMs / 1000} s; ` +
        'it may yet be recorded (the worker retries failed attempts for about 10 minutes).',
    )
  }
}
