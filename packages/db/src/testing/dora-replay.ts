// Replays a history of one application in production (dora-oracle.ts) into the database in a
// given arrival order, as the worker and the API store it: deployments recorded in batches
// (consecutive arrivals together), commit lists stored by replaceDeploymentCommits before or
// after their deployment is recorded, incidents last (their cause must be recorded).

import { instantFromMicros } from '@shiplog/schema'
import type { Sql, Tx } from '../client.ts'
import type { DeploymentJob } from '../deployment-job.ts'
import { replaceDeploymentCommits } from '../queries/deployment-commits.ts'
import { recordDeployments } from '../queries/record-deployments.ts'
import type { History } from './dora-oracle.ts'
import { emptyRecordedTables } from './recorded-jobs.ts'

/** One arrival: a deployment recorded, its commit list stored, or it voided (once recorded). */
export type Arrival = { kind: 'record' | 'list' | 'void'; deployment: number }

/** Deployments by time, each recorded then its list stored: how a pipeline sends them in order. */
export function inOrder(history: History): Arrival[] {
  return history.deployments
    .map((deployment, index) => ({ deployment, index }))
    .sort((a, b) => (a.deployment.at < b.deployment.at ? -1 : 1))
    .flatMap(({ deployment, index }) => [
      { kind: 'record' as const, deployment: index },
      ...(deployment.list ? [{ kind: 'list' as const, deployment: index }] : []),
      ...(deployment.voided ? [{ kind: 'void' as const, deployment: index }] : []),
    ])
}

function jobOf(history: History, index: number, workspaceId: string): DeploymentJob {
  const deployment = history.deployments[index]
  if (!deployment) throw new Error(`no deployment ${index}`)
  return {
    id: deployment.id,
    workspaceId,
    receivedAt: '2026-05-04T12:00:00.000Z',
    deployment: {
      repositoryFullName: 'acme/shop',
      environment: 'production',
      app: 'api',
      version: deployment.version,
      commitHash: deployment.commit,
      description: null,
      author: null,
      deployedAt: instantFromMicros(deployment.at).iso,
      monorepoPath: null,
    },
  }
}

/** Empties the recorded tables, then stores `history` in the order `arrivals` gives. */
export async function replay(
  sql: Sql,
  workspaceId: string,
  history: History,
  arrivals: Arrival[],
): Promise<void> {
  await sql`delete from incidents`
  await emptyRecordedTables(sql)
  const commitOf = new Map(history.commits.map((commit) => [commit.sha, commit]))
  let batch: DeploymentJob[] = []
  const recorded = new Set<number>()
  // A void sent before its deployment is recorded waits for it, as DELETE answers 409 meanwhile.
  let voids: number[] = []
  const flush = async () => {
    if (batch.length > 0) {
      const jobs = batch
      batch = []
      await sql.begin((tx: Tx) => recordDeployments(tx, jobs))
    }
    const due = voids.filter((index) => recorded.has(index))
    voids = voids.filter((index) => !recorded.has(index))
    for (const index of due) {
      await sql`update deployments set voided_at = now()
                 where id = ${history.deployments[index]?.id ?? ''} and voided_at is null`
    }
  }
  for (const arrival of arrivals) {
    if (arrival.kind === 'record') {
      batch.push(jobOf(history, arrival.deployment, workspaceId))
      recorded.add(arrival.deployment)
      continue
    }
    if (arrival.kind === 'void') voids.push(arrival.deployment)
    await flush()
    if (arrival.kind === 'void') continue
    const list = history.deployments[arrival.deployment]?.list ?? []
    await replaceDeploymentCommits(
      sql,
      workspaceId,
      history.deployments[arrival.deployment]?.id ?? '',
      {
        truncated: false,
        commits: list.map((sha) => {
          const commit = commitOf.get(sha)
          if (!commit) throw new Error(`no commit ${sha}`)
          const at = instantFromMicros(commit.committedAt)
          return { sha, committedAt: at, authoredAt: at, reverts: commit.reverts }
        }),
      },
    )
  }
  await flush()
  const [environment] = await sql<{ id: string }[]>`
    select id::text from environments where workspace_id = ${workspaceId}`
  for (const incident of history.incidents) {
    await sql`
      insert into incidents (id, workspace_id, environment_id, title, started_at, resolved_at,
                             cause_deployment_id, fixed_by_deployment_id)
      values (${incident.id}, ${workspaceId}, ${environment?.id ?? null}, 'incident',
              ${instantFromMicros(incident.startedAt).iso}::text::timestamptz,
              ${incident.resolvedAt === null ? null : instantFromMicros(incident.resolvedAt).iso}::text::timestamptz,
              ${incident.cause}, ${incident.fixedBy})`
  }
}
