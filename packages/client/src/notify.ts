import type { DeploymentStatus } from '@shiplog/schema'
import type { CreatedDeployment, ShiplogClient } from './client.ts'
import { ShiplogError } from './errors.ts'
import { collectCommits, type Git } from './git-commits.ts'
import { FLAG_OF_FIELD, type NotifyPlan, UsageError } from './notify-args.ts'
import { formatProblemLines } from './problem.ts'
import { runProgram } from './runtime.ts'

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

/**
 * Sends the commits the deployment delivered: `git log` from the commit of the previous
 * recorded deployment of the application in the environment (the latest before this one's
 * deployedAt, so a backfill finds its own neighbour) to this one. The deployment stands whatever
 * happens here: a problem is one warning line, not a failed step.
 */
async function sendCommits(
  plan: NotifyPlan,
  created: CreatedDeployment,
  client: ShiplogClient,
  output: Output,
  git: Git,
): Promise<void> {
  const { app, environment, repositoryFullName, commitHash, monorepoPath } = plan.input
  try {
    const deployedAt = plan.input.deployedAt ?? (await client.getDeployment(created.id)).deployedAt
    const [previous] = (
      await client.listDeployments({
        app,
        environment,
        repository: repositoryFullName,
        until: deployedAt,
        limit: 1,
      })
    ).data
    if (!previous) {
      output.out('The first deployment of this app here: its history is not counted as commits.')
      return
    }
    const range = { previous: previous.commitHash, commit: commitHash }
    const collected = await collectCommits(
      git,
      monorepoPath ? { ...range, path: monorepoPath } : range,
    )
    if (!collected.ok) {
      // Outside a checkout is a choice (a deploy job without one); the rest are mistakes to fix.
      if (collected.notCheckout) output.out(collected.reason)
      else output.err(`warning: ${collected.reason}`)
      return
    }
    await client.putDeploymentCommits(created.id, {
      commits: collected.commits,
      truncated: collected.truncated,
    })
    const capped = collected.truncated ? ' (the newest 5,000: there were more)' : ''
    output.out(`Sent ${collected.commits.length} commits since ${previous.version}${capped}.`)
  } catch (error) {
    const [first = 'error: unknown'] = describeError(error)
    output.err(`warning: the commits were not sent: ${first.replace(/^error: /, '')}`)
  }
}

/** Sends the deployment, optionally waits for it to be recorded; resolves with the exit code. */
export async function runNotify(
  plan: NotifyPlan,
  client: ShiplogClient,
  output: Output,
  git: Git = (args) => runProgram('git', args),
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
    if (plan.commits) await sendCommits(plan, created, client, output, git)
    // Recorded once, for --fixes and --wait alike.
    let recorded: DeploymentStatus | undefined
    if (plan.fixes !== undefined) {
      // The incident is resolved by a recorded deployment, at its deployedAt.
      recorded = await client.waitUntilRecorded(created.id, { timeoutMs: plan.timeoutMs })
      const incident = await client.changeIncident(plan.fixes, {
        resolvedAt: recorded.deployedAt,
        fixedByDeploymentId: recorded.duplicateOf ?? recorded.id,
      })
      output.out(`Incident ${incident.id} resolved at ${incident.resolvedAt}: ${incident.title}`)
    }
    if (!plan.wait) return 0
    output.out(`Waiting up to ${plan.timeoutMs / 1000} s for it to be recorded…`)
    recorded ??= await client.waitUntilRecorded(created.id, { timeoutMs: plan.timeoutMs })
    const repeat = recorded.duplicateOf ? ` (a repeat of deployment ${recorded.duplicateOf})` : ''
    output.out(`Recorded at ${recorded.recordedAt}${repeat}`)
    return 0
  } catch (error) {
    for (const line of describeError(error)) output.err(line)
    return exitCodeFor(error)
  }
}
