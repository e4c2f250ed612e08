import type { DeploymentStatus } from '@shiplog/schema'
import type { ShiplogClient } from './client.ts'
import { describeDuration } from './duration.ts'
import { ShiplogError, ShiplogNetworkError } from './errors.ts'
import { type Checkout, localCheckout } from './git-checkout.ts'
import { FLAG_OF_FIELD, type NotifyPlan, UsageError } from './notify-args.ts'
import { type CommitsOutcome, sendCommits } from './notify-commits.ts'
import type { Output } from './notify-output.ts'
import { acceptDeployment } from './notify-rerun.ts'
import { formatProblemLines } from './problem.ts'
import { KEY_WITH_READ, lacksScope } from './read-scope.ts'
import { isRetryableStatus } from './retry.ts'

export type { Output } from './notify-output.ts'

/** The exit code of a deployment recorded without the commits `--require-commits` asked for. */
export const COMMITS_MISSING_EXIT = 3

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
 * For an outage retrying did not outlast (still 503, 429 or unreachable after retries), the line
 * saying for how long it was retried, and for notify what sets that.
 */
function gaveUpLine(error: unknown, command: string): string[] {
  const outage =
    error instanceof ShiplogNetworkError ||
    (error instanceof ShiplogError && isRetryableStatus(error.status))
  if (!outage || error.attempts < 2) return []
  const hint = command === 'notify' ? '; --retry-for (or SHIPLOG_RETRY_FOR) sets how long' : ''
  return [
    `  gave up after ${error.attempts} attempts over ${describeDuration(error.elapsedMs)}${hint}`,
  ]
}

/**
 * The error as lines for a person reading the pipeline log: a field the API refused is named with
 * the flag that sets it (`flagOf`), a usage error points at `command --help`, and an outage
 * retried until the budget ran out says for how long.
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
    return [`error: ${first}`, ...rest, ...gaveUpLine(error, command)]
  }
  if (error instanceof UsageError) {
    return [`error: ${error.message}`, `Run \`shiplog ${command} --help\` for the flags.`]
  }
  const message = error instanceof Error ? error.message : String(error)
  return [`error: ${message}`, ...gaveUpLine(error, command)]
}

/**
 * Sends the deployment, its commits, optionally waits for it to be recorded; resolves with the
 * exit code. `git` runs in the checkout (made on first use when not given).
 */
export async function runNotify(
  plan: NotifyPlan,
  client: ShiplogClient,
  output: Output,
  git?: Checkout,
): Promise<number> {
  const { app, version, environment } = plan.input
  try {
    const acceptance = await acceptDeployment(plan, client)
    if (acceptance.kind === 'unseen') {
      output.out(
        `This job (${plan.rerun?.from}) already reported ${app} to ${environment} with other ` +
          'fields, so this re-run records nothing new.',
      )
      return 0
    }
    const { created } = acceptance
    const earlier =
      acceptance.kind === 'earlier'
        ? ` (reported by an earlier run of this job, ${plan.rerun?.from}: nothing new recorded)`
        : ''
    output.out(`Deployment ${created.id} accepted: ${app} ${version} to ${environment}${earlier}`)
    output.out(created.location)
    // The receipt answers a key, not a browser: a person following the log opens the page.
    output.out(`Its page: ${client.pageUrl(created.id)}`)
    output.accepted?.(created)
    const followReceipt = (option: string) =>
      client.waitUntilRecorded(created.id, { timeoutMs: plan.timeoutMs }).catch((error) => {
        if (!lacksScope(error)) throw error
        throw new UsageError(
          `deployment ${created.id} is accepted, but ${option} needs the read scope to follow its receipt, which this key has not got; ${KEY_WITH_READ}`,
        )
      })
    let commits: CommitsOutcome | undefined
    if (plan.commits) {
      commits = await sendCommits(plan, created, client, output, git ?? (await localCheckout()))
    }
    // Recorded once, for --fixes and --wait alike.
    let recorded: DeploymentStatus | undefined
    if (plan.fixes !== undefined) {
      // The incident is resolved by a recorded deployment, at its deployedAt.
      recorded = await followReceipt('--fixes')
      const incident = await client.changeIncident(plan.fixes, {
        resolvedAt: recorded.deployedAt,
        fixedByDeploymentId: recorded.duplicateOf ?? recorded.id,
      })
      output.out(`Incident ${incident.id} resolved at ${incident.resolvedAt}: ${incident.title}`)
    }
    if (plan.wait) {
      output.out(`Waiting up to ${plan.timeoutMs / 1000} s for it to be recorded…`)
      recorded ??= await followReceipt('--wait')
      const repeat = recorded.duplicateOf ? ` (a repeat of deployment ${recorded.duplicateOf})` : ''
      output.out(`Recorded at ${recorded.recordedAt}${repeat}`)
    }
    if (plan.requireCommits && commits === 'missing') {
      output.err(
        `error: deployment ${created.id} is recorded without its commits (--require-commits): fix the warning above`,
      )
      return COMMITS_MISSING_EXIT
    }
    return 0
  } catch (error) {
    for (const line of describeError(error)) output.err(line)
    return exitCodeFor(error)
  }
}
