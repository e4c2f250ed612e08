import { beforeEach, expect, test } from 'bun:test'
import { instantFromMicros } from '@shiplog/schema'
import type { Tx } from './client.ts'
import type { DeploymentJob } from './deployment-job.ts'
import { replaceDeploymentCommits } from './queries/deployment-commits.ts'
import { recordDeployments } from './queries/record-deployments.ts'
import { heldOpen, untilWaitingOnLock } from './testing/held-transactions.ts'
import { expectExact } from './testing/read-model-recount.ts'
import { emptyRecordedTables, microsOf, toJob } from './testing/recorded-jobs.ts'
import { twoWorkspacesPerFile } from './testing/two-workspaces.ts'

// A commit list may arrive while the delivery it names is still queued, and that delivery may
// turn out to repeat a recorded deployment (its receipt becomes an alias). The list and the
// batch recording the alias run at once; whichever commits first, the deployment's DORA facts
// must count the list (here: a reverting commit), also when the batch records nothing else in
// that workspace (found by the read model's property test, seed -2052106906).

const files = twoWorkspacesPerFile({ applicationName: 'commit-arrivals-test', maxConnections: 6 })
const { sql } = files

const AT = microsOf('2026-05-03T23:59:59.999999Z')
const COMMIT = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'
const REVERTING = '3333333333333333333333333333333333333333'
const id = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`
const job = (n: number, workspace: 0 | 1): DeploymentJob =>
  toJob(
    id(n),
    {
      workspace,
      repository: 'acme/shop',
      app: 'api',
      environment: 'production',
      version: '1.0.0',
      commitHash: COMMIT,
      at: AT,
    },
    files.workspaceIds,
  )
// The repeated delivery of deployment 1, and a first deployment in the other workspace.
const batch = () => [job(2, 0), job(3, 1)]
const committed = instantFromMicros(AT - 1_000_000n)
const commits = [
  { sha: REVERTING, committedAt: committed, authoredAt: committed, reverts: [COMMIT] },
]

beforeEach(async () => {
  await emptyRecordedTables(sql)
  await sql.begin((tx: Tx) => recordDeployments(tx, [job(1, 0)]))
})

async function expectRevertCounted() {
  const [facts] = await sql<{ reverts: boolean }[]>`
    select reverts from deployment_dora_facts where deployment_id = ${id(1)}`
  expect(facts).toEqual({ reverts: true })
  await expectExact(sql)
}

test('a list stored while the batch recording its receipt as an alias is uncommitted', async () => {
  const recording = heldOpen(sql, (tx) => recordDeployments(tx, batch()))
  await recording.started
  const listing = replaceDeploymentCommits(sql, files.workspaceIds[0], id(2), {
    truncated: false,
    commits,
  })
  await untilWaitingOnLock(sql, listing)
  recording.release()
  await Promise.all([recording.done, listing])
  await expectRevertCounted()
})

test('a batch recording the alias while the list for its receipt is uncommitted', async () => {
  const listing = heldOpen(sql, async (tx) => {
    await tx`
      insert into deployment_commit_lists (deployment_id, workspace_id, truncated)
      values (${id(2)}, ${files.workspaceIds[0]}, false)`
    await tx`
      insert into deployment_commits (deployment_id, sha, committed_at, authored_at, reverts)
      values (${id(2)}, ${REVERTING}, ${committed.iso}::timestamptz, ${committed.iso}::timestamptz,
              ${[COMMIT]}::text[])`
  })
  await listing.started
  const recording = sql.begin((tx: Tx) => recordDeployments(tx, batch()))
  await untilWaitingOnLock(sql, recording)
  listing.release()
  await Promise.all([listing.done, recording])
  await expectRevertCounted()
})
