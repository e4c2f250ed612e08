import { afterAll, beforeAll, expect, test } from 'bun:test'
import { refuseVersion, runCli, waitFor } from '@shiplog/db/testing'
import { postDeployment, type Sent } from '../harness/driver.ts'
import { expectEachAcceptedOnce, reconcile } from '../harness/ledger.ts'
import { recordScenario } from '../harness/results.ts'
import { Stack } from '../harness/stack.ts'

let stack: Stack
let allowPoison: () => Promise<void>
beforeAll(async () => {
  stack = await Stack.create()
  // The database refuses this one version every time: a job that fails every attempt.
  allowPoison = await refuseVersion(stack.sql, 'poison', 'version poison is refused by policy')
})
afterAll(() => stack?.close())

test('a poison job fails alone after its retries, is listed and replayed by the CLI, and never delays the others', async () => {
  const api = await stack.startApi()
  stack.startWorker()
  const url = `${api.base}/v1/deployments`
  const sent: Sent[] = [await postDeployment(url, stack.key, 'poison')]
  // Good deployments keep arriving while the poison job is retried.
  const startedAt = Date.now()
  while (Date.now() - startedAt < 3_000) {
    sent.push(await postDeployment(url, stack.key, `good-${sent.length}`))
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const good = sent.filter(
    (request) => request.version !== 'poison' && request.status === 202,
  ).length
  await stack.untilDrained(good)
  const [lag] = await stack.sql<{ max: number; p50: number }[]>`
    select extract(epoch from max(recorded_at - received_at)) * 1000 as max,
           extract(epoch from percentile_cont(0.5) within group (order by recorded_at - received_at)) * 1000 as p50
      from deployments`
  const deadLetters = () => stack.queue.deadLetters()
  await waitFor(
    async () => (await deadLetters()).length === 1,
    'the poison job to be dead-lettered',
    30_000,
  )
  const [dead] = await deadLetters()

  const env = { DATABASE_URL: stack.database.url }
  const listed = await runCli(['jobs', 'failed'], env)
  await allowPoison()
  const replayed = await runCli(['jobs', 'retry', String(dead?.id)], env)
  await stack.untilDrained(good + 1)
  const ledger = await reconcile(stack.sql, sent)

  expect(sent[0]?.status).toBe(202)
  expect(dead?.attempts).toBe(3)
  expect(listed.code).toBe(0)
  expect(listed.stdout).toContain('poison')
  expect(listed.stdout).toContain('version poison is refused by policy')
  expect(replayed.stdout).toContain('Replayed 1 deployment')
  expect(Number(lag?.max)).toBeLessThan(1_000)
  expectEachAcceptedOnce(ledger)
  expect(await stack.pendingJobs()).toEqual({})

  await recordScenario({
    id: '5-poison-job',
    title: 'a job that fails every attempt (the database refuses it), among good ones',
    passed: true,
    figures: {
      'good deployments during the retries': good,
      'their accept-to-recorded time, median / max': `${Math.round(Number(lag?.p50))} ms / ${Math.round(Number(lag?.max))} ms`,
      'poison attempts before dead-lettering': dead?.attempts ?? 0,
      'listed by bun run jobs failed': listed.stdout.includes('poison')
        ? 'yes, with the reason'
        : 'no',
      'recorded after bun run jobs retry': 'yes',
      rows: ledger.rows,
      duplicates: ledger.duplicates,
      lost: ledger.lost,
    },
  })
}, 120_000)
