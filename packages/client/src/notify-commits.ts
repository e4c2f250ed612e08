import type { DeploymentCommitsInput } from '@shiplog/schema'
import type { CreatedDeployment, ShiplogClient } from './client.ts'
import { ShiplogError } from './errors.ts'
import { type Checkout, checkoutState, originWebUrl } from './git-checkout.ts'
import { collectCommits, FIRST_DEPLOYMENT_HISTORY } from './git-commits.ts'
import type { NotifyPlan } from './notify-args.ts'
import { type Output, warn } from './notify-output.ts'
import { KEY_WITH_READ, lacksScope } from './read-scope.ts'

/** What became of the commits: sent, a first deployment's history (or none), or missing (warned). */
export type CommitsOutcome = 'sent' | 'first' | 'missing'

/**
 * Sends the commits the deployment delivered: `git log` from the commit of the previous
 * recorded deployment of the application in the environment (the latest before this one's
 * deployedAt, so a backfill finds its own neighbour) to this one. With no such deployment it
 * sends a bounded history instead (FIRST_DEPLOYMENT_HISTORY): a deployment before it may still
 * arrive (a backfill in any order), and then this list is what says what this one delivered;
 * an initial deployment's commits count in no lead time. The deployment stands whatever happens
 * here: a problem is one warning that says why, not a failed step. A first deployment whose
 * commit is not in the checkout sends nothing, but git must still be able to read the checkout,
 * or no later one will send any.
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
    const path = monorepoPath ? { path: monorepoPath } : {}
    if (!previous) {
      const state = await checkoutState(git.read)
      if (!state.ok) return missing(state.reason)
    }
    if (previous && previous.commitHash === null) {
      return missing(
        `the deployment before this one (${previous.version}, from ${previous.source}) has no known commit: its sender named none, so where this one's commits start is unknown and none were sent`,
      )
    }
    const collected = await collectCommits(git, {
      ...(previous?.commitHash ? { previous: previous.commitHash } : {}),
      commit: commitHash,
      ...path,
    })
    if (!collected.ok && !previous) {
      output.out(
        `The first deployment of this app here: ${collected.reason}, so no history was sent.`,
      )
      return 'first'
    }
    if (!collected.ok) return missing(collected.reason)
    const webUrl = plan.webUrl ?? (await originWebUrl(git.read))
    const kept = await putList(client, created.id, {
      commits: collected.commits,
      truncated: collected.truncated,
      ...(webUrl === undefined ? {} : { webUrl }),
    })
    if (kept !== undefined) {
      output.out(`No new commits to send: the ${kept} stored for this deployment are kept.`)
      return 'sent'
    }
    if (collected.unresolvedReverts.length > 0)
      warn(output, unresolvedLine(collected.unresolvedReverts))
    const count = collected.commits.length
    if (!previous) {
      const capped = collected.truncated ? ` (the newest ${FIRST_HISTORY}: there are more)` : ''
      output.out(
        `No earlier deployment of this app here: sent ${count === 1 ? 'the one commit' : `the ${count} commits`} of its history${capped}, in case one arrives later.`,
      )
      return 'first'
    }
    const capped = collected.truncated ? ' (the newest 5,000: there were more)' : ''
    output.out(
      `Sent ${count} ${count === 1 ? 'commit' : 'commits'} since ${previous.version}${capped}.`,
    )
    return 'sent'
  } catch (error) {
    if (lacksScope(error)) {
      return missing(
        `the commits were not sent: finding the deployment before this one needs the read scope, which this key has not got; ${KEY_WITH_READ}, or pass --no-commits`,
      )
    }
    return missing(
      `the commits were not sent: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

const FIRST_HISTORY = FIRST_DEPLOYMENT_HISTORY.toLocaleString('en')

/**
 * PUTs the list. The API refuses an empty list where commits are stored (409), keeping them: a
 * re-run whose range became empty since (an earlier deployment of the same commit arrived
 * between), not a problem. Resolves with how many were kept then, else undefined.
 */
async function putList(
  client: ShiplogClient,
  id: string,
  input: DeploymentCommitsInput,
): Promise<number | undefined> {
  try {
    await client.putDeploymentCommits(id, input)
    return undefined
  } catch (error) {
    if (input.commits.length > 0 || !(error instanceof ShiplogError) || error.status !== 409) {
      throw error
    }
    const stored = await client.getDeploymentCommits(id).catch(() => undefined)
    if (stored === undefined || stored.commits.length === 0) throw error
    return stored.commits.length
  }
}

/** One line for every revert that names no single commit, however many there are. */
function unresolvedLine(notes: string[]): string {
  const shown = notes.slice(0, 3).join('; ')
  const more = notes.length > 3 ? `; and ${notes.length - 3} more` : ''
  const reverts = notes.length === 1 ? '1 revert is' : `${notes.length} reverts are`
  return `${reverts} not counted, since what each reverts is not one commit of this history: ${shown}${more}`
}
