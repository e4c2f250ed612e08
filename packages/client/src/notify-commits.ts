import type { CreatedDeployment, ShiplogClient } from './client.ts'
import { type Checkout, checkoutState, originWebUrl } from './git-checkout.ts'
import { collectCommits } from './git-commits.ts'
import type { NotifyPlan } from './notify-args.ts'
import { type Output, warn } from './notify-output.ts'

/** What became of the commits: sent, none due (a first deployment), or missing (warned). */
export type CommitsOutcome = 'sent' | 'first' | 'missing'

/**
 * Sends the commits the deployment delivered: `git log` from the commit of the previous
 * recorded deployment of the application in the environment (the latest before this one's
 * deployedAt, so a backfill finds its own neighbour) to this one. The deployment stands whatever
 * happens here: a problem is one warning that says why, not a failed step. A first deployment
 * sends none, but git must still be able to read the checkout, or no later one will send any.
 */
export async function sendCommits(
  plan: NotifyPlan,
  created: CreatedDeployment,
  client: ShiplogClient,
  output: Output,
  git: Checkout,
): Promise<CommitsOutcome> {
  const { app, environment, repositoryFullName, commitHash, monorepoPath } = plan.input
  const missing = (reason: string): CommitsOutcome => {
    warn(output, reason)
    return 'missing'
  }
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
      const state = await checkoutState(git.read)
      if (!state.ok) return missing(state.reason)
      output.out('The first deployment of this app here: its history is not counted as commits.')
      return 'first'
    }
    const range = { previous: previous.commitHash, commit: commitHash }
    const collected = await collectCommits(
      git,
      monorepoPath ? { ...range, path: monorepoPath } : range,
    )
    if (!collected.ok) return missing(collected.reason)
    const webUrl = plan.webUrl ?? (await originWebUrl(git.read))
    await client.putDeploymentCommits(created.id, {
      commits: collected.commits,
      truncated: collected.truncated,
      ...(webUrl === undefined ? {} : { webUrl }),
    })
    const capped = collected.truncated ? ' (the newest 5,000: there were more)' : ''
    output.out(`Sent ${collected.commits.length} commits since ${previous.version}${capped}.`)
    return 'sent'
  } catch (error) {
    return missing(
      `the commits were not sent: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}
