import { beforeAll, expect, test } from 'bun:test'
import { refuseVersion, runCli, waitFor } from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

const h = harnessPerFile({}, { WORKER_POLL_INTERVAL_MS: '20' })
let env: Record<string, string>
let allowPoison: () => Promise<void>
beforeAll(async () => {
  env = { DATABASE_URL: h.databaseUrl }
  // A deployment the database refuses every time: a poison job.
  allowPoison = await refuseVersion(h.sql, 'poison', 'version poison is refused by policy')
})

test('a poison job fails alone, is retried, dead-lettered, listed by the CLI and replayed', async () => {
  const versions = ['1.0.0', 'poison', '1.0.1', '1.0.2']
  for (const version of versions) {
    expect((await h.post(validDeployment({ version }))).status).toBe(202)
  }
  // The first batch holds all four: the three good ones are recorded at once.
  await h.worker.consumer.runOnce()
  const recorded = await h.sql<
    { version: string }[]
  >`select version from deployments order by version`
  expect(recorded.map((row) => row.version)).toEqual(['1.0.0', '1.0.1', '1.0.2'])

  h.worker.consumer.start()
  const deadLetters = () => h.worker.queue.deadLetters()
  await waitFor(
    async () => (await deadLetters()).length === 1,
    'the poison job to be dead-lettered',
  )
  const [dead] = await deadLetters()
  expect(dead?.attempts).toBe(3)

  const failed = await runCli(['jobs', 'failed'], env)
  expect(failed.code).toBe(0)
  expect(failed.stdout).toContain(String(dead?.id))
  expect(failed.stdout).toContain('poison')
  expect(failed.stdout).toContain('version poison is refused by policy')
  expect(failed.stdout).toContain('3')

  await allowPoison()
  const retried = await runCli(['jobs', 'retry', String(dead?.id)], env)
  expect(retried.code).toBe(0)
  expect(retried.stdout).toContain('Replayed 1 deployment')
  await waitFor(async () => (await h.deploymentCount()) === 4, 'the replayed deployment')
  expect((await runCli(['jobs', 'failed'], env)).stdout).toContain('No failed deployments.')
  expect((await runCli(['jobs', 'retry', String(dead?.id)], env)).code).toBe(1)
}, 30_000)

test('jobs retry --all replays every dead letter', async () => {
  await h.worker.consumer.stop()
  allowPoison = await refuseVersion(h.sql, 'poison', 'version poison is refused by policy')
  for (const suffix of ['a', 'b']) {
    await h.post(validDeployment({ version: 'poison', environment: `env-${suffix}` }))
  }
  const deadLetters = () => h.worker.queue.deadLetters()
  h.worker.consumer.start()
  await waitFor(async () => (await deadLetters()).length === 2, 'two dead letters')
  await allowPoison()
  const retried = await runCli(['jobs', 'retry', '--all'], env)
  expect(retried.stdout).toContain('Replayed 2 deployments')
  await waitFor(async () => (await h.deploymentCount()) === 6, 'both replayed deployments')
}, 30_000)

test('the CLI refuses a database that is not migrated to this build', async () => {
  await h.sql`insert into shiplog_migrations (version, name) values (999, '0999_future.sql')`
  const result = await runCli(['keys', 'list'], env)
  await h.sql`delete from shiplog_migrations where version = 999`
  expect(result.code).toBe(1)
  expect(result.stderr).toContain('run bun run migrate')
})
