import { expect, test } from 'bun:test'
import { waitFor } from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

// One job per transaction and ten transactions at once, so first deployments race for real.
const h = harnessPerFile(
  {},
  { WORKER_BATCH_SIZE: '1', WORKER_CONCURRENCY: '10', WORKER_POLL_INTERVAL_MS: '10' },
)

test('50 concurrent first deployments of a new app give one application and 50 deployments', async () => {
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, index) =>
      h.post(
        validDeployment({
          repositoryFullName: 'acme/brand-new',
          app: index % 2 ? 'Fresh-App' : 'fresh-app',
          environment: index % 3 ? 'Canary' : 'canary',
          version: `1.0.${index}`,
        }),
      ),
    ),
  )
  expect(responses.map((response) => response.status)).toEqual(Array(50).fill(202))

  h.worker.consumer.start()
  await waitFor(async () => (await h.deploymentCount()) === 50, '50 recorded deployments')
  const [counts] = await h.sql`
    select (select count(*)::int from applications) as applications,
           (select count(*)::int from environments) as environments,
           (select count(*)::int from repositories) as repositories,
           (select count(*)::int from deployments) as deployments`
  expect(counts).toEqual({ applications: 1, environments: 1, repositories: 1, deployments: 50 })
  // The race is settled inside each transaction: every deployment was recorded at its first
  // attempt, so none moved to the retries and none was dead-lettered.
  const [{ waiting } = { waiting: -1 }] =
    await h.sql`select count(*)::int as waiting from deployment_inbox`
  expect(waiting).toBe(0)
  expect((await h.worker.metrics.retried.get()).values[0]?.value ?? 0).toBe(0)
  expect(await h.worker.queue.deadLetters()).toEqual([])
  const unrecorded = await h.get('/v1/deployments?status=queued')
  expect((await unrecorded.json()).data).toEqual([])
})
