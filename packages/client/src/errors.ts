import type { DeploymentStatus } from '@shiplog/schema'
import type { FieldError, Problem } from '@shiplog/schema/problem'
import { summarizeProblem } from './problem.ts'

/** The API answered with an error: its HTTP status and RFC 9457 problem, readable as a message. */
export class ShiplogError extends Error {
  override readonly name = 'ShiplogError'
  readonly status: number
  /** The problem `type`, e.g. `/problems/validation-failed`, to branch on rather than the text. */
  readonly type: string
  readonly problem: Problem
  /** Every invalid field the API listed; empty for errors that are not about fields. */
  readonly fieldErrors: FieldError[]

  constructor(problem: Problem) {
    super(summarizeProblem(problem))
    this.status = problem.status
    this.type = problem.type
    this.problem = problem
    this.fieldErrors = problem.errors ?? []
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
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    super(
      `Could not reach Shiplog (${method} ${url}) in ${attempts} attempt${attempts === 1 ? '' : 's'}: ${reason}`,
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
