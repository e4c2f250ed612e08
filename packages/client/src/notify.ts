import type { CreatedDeployment, ShiplogClient } from './client.ts'
import { ShiplogError } from './errors.ts'
import { FLAG_OF_FIELD, type NotifyPlan, UsageError } from './notify-args.ts'
import { formatProblemLines } from './problem.ts'

/** Where the command writes: stdout for results, stderr for errors. */
export interface Output {
  out(line: string): void
  err(line: string): void
  /** The receipt, as soon as the API has accepted the deployment (the GitHub Action's outputs). */
  accepted?(created: CreatedDeployment): void
}

/**
 * 2 when the request itself is wrong (bad flags, invalid fields, a refused key): running it again
 * unchanged cannot succeed. 1 for everything that might pass on another run: rate limits after
 * every retry, timeouts, the server or network failing, a deployment that failed to record.
 */
export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return 2
  if (error instanceof ShiplogError) {
    const { status } = error
    return status >= 400 && status < 500 && status !== 408 && status !== 429 ? 2 : 1
  }
  return 1
}

/**
 * The error as lines for a person reading the pipeline log: a field the API refused is named with
 * the flag that sets it (`flagOf`), and a usage error points at `command --help`.
 */
export function describeError(
  error: unknown,
  flagOf: Readonly<Record<string, string>> = FLAG_OF_FIELD,
  command = 'notify',
): string[] {
  if (error instanceof ShiplogError) {
    const label = (field: string) => {
      const flag = flagOf[field]
      return flag ? `${field} (${flag})` : field
    }
    const [first = '', ...rest] = formatProblemLines(error.problem, label)
    return [`error: ${first}`, ...rest]
  }
  if (error instanceof UsageError) {
    return [`error: ${error.message}`, `Run \`shiplog ${command} --help\` for the flags.`]
  }
  return [`error: ${error instanceof Error ? error.message : String(error)}`]
}

/** Sends the deployment, optionally waits for it to be recorded; resolves with the exit code. */
export async function runNotify(
  plan: NotifyPlan,
  client: ShiplogClient,
  output: Output,
): Promise<number> {
  const { app, version, environment } = plan.input
  try {
    const { idempotencyKey } = plan
    const created = await client.createDeployment(
      plan.input,
      idempotencyKey === undefined ? {} : { idempotencyKey },
    )
    output.out(`Deployment ${created.id} accepted: ${app} ${version} to ${environment}`)
    output.out(created.location)
    output.accepted?.(created)
    if (!plan.wait) return 0
    output.out(`Waiting up to ${plan.timeoutMs / 1000} s for it to be recorded…`)
    const recorded = await client.waitUntilRecorded(created.id, { timeoutMs: plan.timeoutMs })
    const repeat = recorded.duplicateOf ? ` (a repeat of deployment ${recorded.duplicateOf})` : ''
    output.out(`Recorded at ${recorded.recordedAt}${repeat}`)
    return 0
  } catch (error) {
    for (const line of describeError(error)) output.err(line)
    return exitCodeFor(error)
  }
}
