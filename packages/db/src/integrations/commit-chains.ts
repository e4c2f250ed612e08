import {
  FIRST_DEPLOYMENT_HISTORY,
  instantFromDate,
  MAX_DEPLOYMENT_COMMITS,
  type ValidCommit,
} from '@shiplog/schema'
import { isFullSha, revertClaim, withoutPullRequest } from '@shiplog/schema/revert-forms'
import type { Sql, Tx } from '../client.ts'
import { writeDeploymentCommits } from '../queries/deployment-commits.ts'
import {
  findRevertTarget,
  type PushedCommitRow,
  pushedCommitsUpTo,
  pushStepAt,
  repositoryWebUrl,
} from './pushes.ts'

/**
 * Asks for a deployment's commits to be derived from pushes: in the transaction that queues it,
 * so a deployment an integration recorded always has its chain's row.
 */
export async function awaitCommitChain(
  tx: Tx,
  chain: { deploymentId: string; workspaceId: string; repositoryKey: string },
): Promise<void> {
  await tx`
    insert into commit_chains (deployment_id, workspace_id, repository_key, state)
    values (${chain.deploymentId}, ${chain.workspaceId}, ${chain.repositoryKey}, 'waiting')
    on conflict (deployment_id) do nothing`
}

/** What a chain came to: the commits, or why they are unknown. */
export type ChainResult =
  | { kind: 'derived'; commits: PushedCommitRow[]; truncated: boolean }
  | { kind: 'unknown'; reason: string }

const short = (sha: string) => sha.slice(0, 12)

/**
 * Walks the pushes back from `commit` to `previous` (the commit of the deployment before it in its
 * stream), collecting the commits they listed, newest first: `git log previous..commit` as far as
 * pushes tell it. Without `previous` it walks to the branch's first push, keeping the newest
 * FIRST_DEPLOYMENT_HISTORY, as `shiplog notify` does for a first deployment. It stops with a
 * reason, never with a partial list, at a push it never received, at a push whose list the host
 * cut, and at a forced push, which does not say what its commits were built on (unless the
 * previous deployment is the commit it replaced: then its commits are exactly the range).
 */
export async function walkChain(
  tx: Tx,
  at: { workspaceId: string; repositoryKey: string; commit: string; previous: string | undefined },
): Promise<ChainResult> {
  const { previous } = at
  const cap = previous === undefined ? FIRST_DEPLOYMENT_HISTORY : MAX_DEPLOYMENT_COMMITS
  const from = previous === undefined ? 'the start of the branch' : short(previous)
  const commits = new Map<string, PushedCommitRow>()
  const derived = (truncated = false): ChainResult => ({
    kind: 'derived',
    commits: [...commits.values()],
    truncated,
  })
  let current = at.commit.toLowerCase()
  // Pushes that went back and forth (a branch reset, then pushed again, where the host does not
  // say it was forced) can lead the walk round in a circle: it never steps through a push twice.
  const steppedThrough = new Set<string>()
  for (;;) {
    if (current === previous) return derived()
    const step = await pushStepAt(tx, at.workspaceId, at.repositoryKey, current)
    if (!step) {
      return { kind: 'unknown', reason: `no push received between ${from} and ${short(current)}` }
    }
    if (steppedThrough.has(step.id)) {
      return { kind: 'unknown', reason: `the pushes from ${short(current)} lead back to it` }
    }
    steppedThrough.add(step.id)
    for (const commit of await pushedCommitsUpTo(tx, step.id, step.position)) {
      if (commit.sha === previous) return derived()
      if (commits.size === cap) return derived(true)
      commits.set(commit.sha, commit)
    }
    if (step.listed < step.total) {
      return {
        kind: 'unknown',
        reason: `the push of ${short(step.after)} listed ${step.listed} of its ${step.total} commits (the host caps the list), so those between ${from} and ${short(current)} are not all known`,
      }
    }
    if (step.forced) {
      if (step.before === previous) return derived()
      return {
        kind: 'unknown',
        reason: `a forced push (${short(step.before)} to ${short(step.after)}) rewrote the branch and does not say which commit its new ones were built on`,
      }
    }
    if (/^0+$/.test(step.before)) return derived()
    current = step.before
  }
}

/** The derived commits as the contract stores them, with what each one's message reverts. */
async function asCommitList(
  tx: Tx,
  at: { workspaceId: string; repositoryKey: string },
  commits: PushedCommitRow[],
): Promise<ValidCommit[]> {
  const list: ValidCommit[] = []
  for (const commit of commits) {
    list.push({
      sha: commit.sha,
      committedAt: instantFromDate(new Date(commit.committedAt)),
      authoredAt: instantFromDate(new Date(commit.authoredAt)),
      reverts: await revertsOf(tx, at, commit),
      subject: commit.subject,
      author: commit.author,
    })
  }
  return list
}

/** What a commit's message reverts, resolved among the repository's pushed commits. */
async function revertsOf(
  tx: Tx,
  at: { workspaceId: string; repositoryKey: string },
  commit: PushedCommitRow,
): Promise<string[]> {
  const claim = revertClaim(commit.subject ?? '', commit.message)
  if (claim === undefined) return []
  if (claim.form === 'shas') {
    const found: string[] = []
    for (const sha of claim.shas) {
      const full = isFullSha(sha)
        ? sha
        : await findRevertTarget(tx, at.workspaceId, at.repositoryKey, { shaPrefix: sha })
      if (full !== undefined && full !== commit.sha) found.push(full)
    }
    return found
  }
  const target = await findRevertTarget(tx, at.workspaceId, at.repositoryKey, {
    subjects: [...new Set([claim.title, withoutPullRequest(claim.title)])],
  })
  return target === undefined || target === commit.sha ? [] : [target]
}

/** A chain waiting to be derived, whose deployment is recorded (or known as a repeat). */
interface WaitingChain {
  deploymentId: string
  workspaceId: string
  repositoryKey: string
  repeat: boolean
}

/**
 * Derives up to `limit` waiting chains, each in its own transaction: stores the commits through
 * the same write as PUT /v1/deployments/{id}/commits, or says why they are unknown; then sends
 * the next deployment of the stream back to be derived, since its previous one may have changed.
 * A chain whose deployment is still queued waits. Resolves with how many it settled.
 */
export async function deriveWaitingChains(sql: Sql, limit: number): Promise<number> {
  let settled = 0
  for (let index = 0; index < limit; index++) {
    const done = await sql.begin(async (tx) => {
      const [chain] = await tx<WaitingChain[]>`
        select c.deployment_id::text as "deploymentId", c.workspace_id::text as "workspaceId",
               c.repository_key as "repositoryKey",
               not exists (select 1 from deployments d where d.id = c.deployment_id) as repeat
          from commit_chains c
         where c.state = 'waiting'
           and (exists (select 1 from deployments d where d.id = c.deployment_id)
                or exists (select 1 from deployment_aliases a where a.id = c.deployment_id))
         order by c.updated_at
         limit 1
           for update of c skip locked`
      if (!chain) return false
      if (chain.repeat) {
        // Recorded as a repeat of an earlier deployment: that one's list is the list.
        await tx`delete from commit_chains where deployment_id = ${chain.deploymentId}`
        return true
      }
      await deriveOne(tx, chain)
      return true
    })
    if (!done) break
    settled++
  }
  return settled
}

async function deriveOne(tx: Tx, chain: WaitingChain): Promise<void> {
  const [deployment] = await tx<
    {
      commit: string | null
      hasPrevious: boolean
      previous: string | null
      next: string | null
      voided: boolean
    }[]
  >`
    select d.commit_hash as commit, d.voided_at is not null as voided,
           previous.id is not null as "hasPrevious", previous.commit_hash as previous,
           (select n.id::text from deployment_after(d.application_id, d.environment_id,
                                                    d.deployed_at, d.id) n) as next
      from deployments d
      left join lateral deployment_before(d.application_id, d.environment_id,
                                          d.deployed_at, d.id) previous on true
     where d.id = ${chain.deploymentId}`
  if (!deployment) return
  const result = await chainOf(tx, chain, deployment)
  if (result.kind === 'unknown') {
    await tx`
      update commit_chains set state = 'unknown', reason = ${result.reason}, updated_at = now()
       where deployment_id = ${chain.deploymentId}`
  } else {
    const commits = await asCommitList(tx, chain, result.commits)
    const [held] = await tx<{ count: number }[]>`
      select count(*)::int as count from deployment_commits
       where deployment_id = ${chain.deploymentId}`
    // An empty range (a redeploy of the same commit) stores an empty list, never over a list.
    if (commits.length > 0 || (held?.count ?? 0) === 0) {
      await writeDeploymentCommits(tx, chain.workspaceId, chain.deploymentId, {
        commits,
        truncated: result.truncated,
        webUrl: await repositoryWebUrl(tx, chain.workspaceId, chain.repositoryKey),
      })
    }
    await tx`
      update commit_chains set state = 'derived', reason = null, updated_at = now()
       where deployment_id = ${chain.deploymentId}`
  }
  if (deployment.next !== null) {
    await tx`
      update commit_chains set state = 'waiting', reason = null, updated_at = now()
       where deployment_id = ${deployment.next} and state in ('derived', 'unknown')`
  }
}

/**
 * The commits between a deployment and the one before it, or why they are unknown. Where either
 * commit is unknown (a sender that names none) the range has no end to walk from or to: walking
 * past it would give the deployment commits an earlier one delivered.
 */
async function chainOf(
  tx: Tx,
  chain: WaitingChain,
  deployment: { commit: string | null; hasPrevious: boolean; previous: string | null },
): Promise<ChainResult> {
  if (deployment.commit === null) {
    return {
      kind: 'unknown',
      reason: 'the deployment’s own commit is unknown: its sender named none',
    }
  }
  if (deployment.hasPrevious && deployment.previous === null) {
    return {
      kind: 'unknown',
      reason: 'the deployment before it has no known commit, so where its commits start is unknown',
    }
  }
  return walkChain(tx, {
    workspaceId: chain.workspaceId,
    repositoryKey: chain.repositoryKey,
    commit: deployment.commit,
    previous: deployment.previous?.toLowerCase() ?? undefined,
  })
}

/** Why a deployment's commits are unknown, when an integration could not derive them. */
export async function commitsUnknownReason(
  sql: Sql,
  deploymentId: string,
): Promise<string | undefined> {
  const [row] = await sql<{ reason: string }[]>`
    select reason from commit_chains where deployment_id = ${deploymentId} and state = 'unknown'`
  return row?.reason
}
