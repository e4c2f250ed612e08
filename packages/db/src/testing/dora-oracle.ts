// The DORA rules of docs/dora.md, worked out in TypeScript from a history of one application in
// one environment, for the property tests to hold the database's answers against: written from
// the documented rule, not from the SQL, so a mistake shared by the triggers, the views and the
// read queries shows.

/** A commit: its committer time in microseconds, and the commits its message reverts. */
export interface HistoryCommit {
  sha: string
  committedAt: bigint
  reverts: string[]
}

/**
 * A deployment: when, which commit (null: unknown, its sender named none), its version, and the
 * commits its list names (null: no list sent).
 */
export interface HistoryDeployment {
  id: string
  at: bigint
  commit: string | null
  version: string
  list: string[] | null
  /** Voided once recorded (DELETE /v1/deployments/{id}): counted nowhere. */
  voided?: boolean
}

/** An incident caused by a deployment, resolved at a time (null: open) or by a fixing deployment. */
export interface HistoryIncident {
  id: string
  cause: string
  startedAt: bigint
  resolvedAt: bigint | null
  fixedBy: string | null
}

export interface History {
  commits: HistoryCommit[]
  deployments: HistoryDeployment[]
  incidents: HistoryIncident[]
}

/** What the rules say of each deployment. */
export interface OracleDeployment {
  id: string
  at: bigint
  changeType: 'initial' | 'redeploy' | 'rollback' | 'forward'
  /** Seconds from each commit it delivered first to it (none for an initial deployment). */
  leadSeconds: number[]
  /** Failed by any signal known: null when not, else its earliest recovery (null: open). */
  failure: { recoveredAt: bigint | null } | null
  rework: boolean
}

const earlier = (a: HistoryDeployment, b: HistoryDeployment) =>
  a.at < b.at || (a.at === b.at && a.id < b.id)

/** docs/dora.md: the same commit, or where either commit is unknown, the same version. */
const sameChange = (a: HistoryDeployment, b: HistoryDeployment) =>
  a.commit !== null && b.commit !== null ? a.commit === b.commit : a.version === b.version

/** Every deployment of the history with its change type, lead times, failure and rework. */
export function oracleOf(history: History): Map<string, OracleDeployment> {
  const stream = history.deployments
    .filter((deployment) => !deployment.voided)
    .sort((a, b) => (earlier(a, b) ? -1 : 1))
  const commitOf = new Map(history.commits.map((commit) => [commit.sha, commit]))
  const firstDelivery = new Map<string, number>()
  stream.forEach((deployment, index) => {
    for (const sha of deployment.list ?? [])
      if (!firstDelivery.has(sha)) firstDelivery.set(sha, index)
  })
  const result = new Map<string, OracleDeployment>()
  const failures = new Map<number, (bigint | null)[]>()
  const fail = (index: number, recoveredAt: bigint | null) =>
    failures.set(index, [...(failures.get(index) ?? []), recoveredAt])
  const reworked = new Set<number>()
  stream.forEach((deployment, index) => {
    const previous = stream[index - 1]
    let sameCommitBefore = -1
    // An earlier delivery of the same commit; where the commit is unknown, of the same version
    // by a deployment whose commit is unknown too.
    const deliveredAgain = (earlier: HistoryDeployment | undefined) =>
      deployment.commit !== null
        ? earlier?.commit === deployment.commit
        : earlier?.commit === null && earlier.version === deployment.version
    for (let i = index - 1; i >= 0; i--) {
      if (deliveredAgain(stream[i])) {
        sameCommitBefore = i
        break
      }
    }
    const changeType = !previous
      ? 'initial'
      : sameChange(previous, deployment)
        ? 'redeploy'
        : sameCommitBefore >= 0
          ? 'rollback'
          : 'forward'
    const firsts = [...new Set(deployment.list ?? [])].filter(
      (sha) => firstDelivery.get(sha) === index,
    )
    // Rollback: the deployment after its target failed, recovered now.
    if (changeType === 'rollback') {
      fail(sameCommitBefore + 1, deployment.at)
      reworked.add(index)
    }
    // Revert, where the reverting commit is first delivered: the reverted commit's first delivery,
    // if earlier, failed; unless the reverted commit is itself a revert (a re-apply).
    for (const sha of firsts) {
      for (const reverted of commitOf.get(sha)?.reverts ?? []) {
        const failed = firstDelivery.get(reverted)
        if (failed === undefined || failed >= index) continue
        if ((commitOf.get(reverted)?.reverts.length ?? 0) > 0) continue
        fail(failed, deployment.at)
        reworked.add(index)
      }
    }
    result.set(deployment.id, {
      id: deployment.id,
      at: deployment.at,
      changeType,
      leadSeconds:
        changeType === 'initial'
          ? []
          : firsts.map(
              (sha) => Number(deployment.at - (commitOf.get(sha)?.committedAt ?? 0n)) / 1e6,
            ),
      failure: null,
      rework: false,
    })
  })
  const indexOf = new Map(stream.map((deployment, index) => [deployment.id, index]))
  for (const incident of history.incidents) {
    const cause = indexOf.get(incident.cause)
    if (cause !== undefined) fail(cause, incident.resolvedAt)
    const fixer = incident.fixedBy === null ? undefined : indexOf.get(incident.fixedBy)
    if (fixer !== undefined) reworked.add(fixer)
  }
  stream.forEach((deployment, index) => {
    const entry = result.get(deployment.id) as OracleDeployment
    const recoveries = failures.get(index)
    if (recoveries) {
      const known = recoveries
        .filter((at): at is bigint => at !== null)
        .sort((a, b) => (a < b ? -1 : 1))
      entry.failure = { recoveredAt: known[0] ?? null }
    }
    entry.rework = reworked.has(index)
  })
  return result
}

/** What the keys count of the deployments in [since, until), by the rules. */
export function oracleCounts(oracle: Map<string, OracleDeployment>, since: bigint, until: bigint) {
  const inWindow = [...oracle.values()].filter((d) => d.at >= since && d.at < until)
  const changes = inWindow.filter((d) => d.changeType === 'initial' || d.changeType === 'forward')
  const failed = inWindow.filter((d) => d.failure)
  return {
    deployments: inWindow.length,
    changes: changes.length,
    leadCommits: inWindow.reduce((sum, d) => sum + d.leadSeconds.length, 0),
    failed: changes.filter((d) => d.failure).length,
    recoveries: failed
      .filter((d) => d.failure?.recoveredAt != null)
      .map((d) => Number((d.failure?.recoveredAt as bigint) - d.at) / 1e6)
      .sort((a, b) => a - b),
    open: failed.filter((d) => d.failure?.recoveredAt === null).length,
    rework: inWindow.filter((d) => d.rework).length,
    failedIds: failed.map((d) => d.id).sort(),
  }
}
