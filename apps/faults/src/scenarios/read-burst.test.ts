import { afterAll, beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { postDeployment, type Sent } from '../harness/driver.ts'
import { expectEachAcceptedOnce, reconcile } from '../harness/ledger.ts'
import { recordScenario } from '../harness/results.ts'
import { Stack } from '../harness/stack.ts'

let stack: Stack
beforeAll(async () => {
  stack = await Stack.create()
})
afterAll(() => stack?.close())

const BURST_MS = 8_000
const READERS = 40

// 200,000 deployments of 400 applications in 10 environments over 400 days: enough that each
// endpoint's most expensive question costs real time.
async function seed(workspace: string) {
  await stack.sql.begin(async (sql) => {
    await sql`set local statement_timeout = 0`
    await sql`
    with w as (select id from workspaces where slug = ${workspace}),
    r as (
      insert into repositories (workspace_id, full_name, full_name_key)
      select w.id, 'acme/repo-' || n, 'acme/repo-' || n from w, generate_series(1, 40) n
      returning id, workspace_id),
    e as (
      insert into environments (workspace_id, name, name_key)
      select w.id, 'env-' || n, 'env-' || n from w, generate_series(1, 9) n
      union all select w.id, 'production', 'production' from w
      returning id)
    insert into applications (workspace_id, repository_id, name, name_key)
    select r.workspace_id, r.id, 'app-' || n, 'app-' || n from r, generate_series(1, 10) n`
    await sql`
    insert into deployments (id, workspace_id, application_id, environment_id, version,
                             commit_hash, deployed_at, received_at)
    select gen_random_uuid(), a.workspace_id, a.id, e.id, 'v' || i,
           md5(i::text || a.id::text), now() - (i % 400) * interval '1 day' - i * interval '1 second',
           now()
      from applications a
      join environments e on e.workspace_id = a.workspace_id
      cross join generate_series(1, 50) i`
  })
  await stack.sql`analyze`
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0
}

test('a burst of the most expensive reads from one key leaves other workspaces’ posts and /readyz under 1 s p99', async () => {
  const readers = await issueApiKey(stack.sql, {
    workspace: 'readers',
    name: 'dashboard',
    rateLimitPerMinute: 100_000_000,
  })
  await seed('readers')
  const seeded = await stack.deploymentCount()
  const api = await stack.startApi()
  stack.startWorker()
  const yearAgo = new Date(Date.now() - 399 * 86_400_000).toISOString()
  // The costliest form of each read the API allows.
  const expensive = [
    '/v1/state',
    '/v1/applications',
    '/v1/environments',
    '/v1/deployments?limit=100&commitHash=abcd',
    `/v1/deployments?limit=100&since=${yearAgo}&version=v1`,
    '/v1/deployments?status=queued&limit=100',
    '/v1/deployments?status=failed&limit=100',
    `/v1/metrics/deployment-frequency?environment=production&since=${yearAgo}`,
    '/v1/deployments/01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4',
  ]

  const readStatuses: Record<string, number> = {}
  const posted: Sent[] = []
  const readyMs: number[] = []
  const readyStatuses: Record<string, number> = {}
  const endAt = Date.now() + BURST_MS
  const burst = Array.from({ length: READERS }, async (_, reader) => {
    for (let i = reader; Date.now() < endAt; i++) {
      const path = expensive[i % expensive.length] as string
      const status = await fetch(`${api.base}${path}`, {
        headers: { authorization: `Bearer ${readers.key}` },
        signal: AbortSignal.timeout(30_000),
      }).then(
        async (response) => {
          await response.arrayBuffer()
          return response.status
        },
        () => 0,
      )
      readStatuses[status] = (readStatuses[status] ?? 0) + 1
    }
  })
  const poster = (async () => {
    while (Date.now() < endAt) {
      posted.push(
        await postDeployment(`${api.base}/v1/deployments`, stack.key, `p-${posted.length}`),
      )
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()
  const prober = (async () => {
    while (Date.now() < endAt) {
      const startedAt = performance.now()
      const status = await fetch(`${api.base}/readyz`).then(
        (response) => response.status,
        () => 0,
      )
      readyMs.push(performance.now() - startedAt)
      readyStatuses[status] = (readyStatuses[status] ?? 0) + 1
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  await Promise.all([...burst, poster, prober])

  const accepted = posted.filter((sent) => sent.status === 202).length
  // The drain counts every row, the seeded ones too.
  await stack.untilDrained(seeded + accepted)
  const ledger = await reconcile(stack.sql, posted)
  const postP99 = percentile(
    posted.map((sent) => sent.ms),
    99,
  )
  const readyP99 = percentile(readyMs, 99)
  await recordScenario({
    id: '8-read-burst',
    title: 'A burst of expensive reads from one key',
    figures: {
      'seeded deployments (reader workspace)': '200,000 (400 apps × 10 environments)',
      'burst: concurrent readers, one key': `${READERS} for ${BURST_MS / 1000} s`,
      'burst answers by status': JSON.stringify(readStatuses),
      'other workspace: posts sent / accepted': `${posted.length} / ${accepted}`,
      'other workspace: post p50 / p99': `${percentile(
        posted.map((sent) => sent.ms),
        50,
      )} / ${postP99} ms`,
      '/readyz probes by status': JSON.stringify(readyStatuses),
      '/readyz p50 / p99': `${Math.round(percentile(readyMs, 50))} / ${Math.round(readyP99)} ms`,
      'lost / duplicates': `${ledger.lost} / ${ledger.duplicates}`,
    },
    passed: postP99 < 1_000 && readyP99 < 1_000 && accepted === posted.length,
  })

  // Every read got an answer: rows (or 404 for the receipt of an unknown id), or 429/503 for a
  // key past its share; never a 500 or a dropped connection.
  expect(
    Object.keys(readStatuses).filter((status) => !['200', '404', '429', '503'].includes(status)),
  ).toEqual([])
  expect(readStatuses['200'] ?? 0).toBeGreaterThan(0)
  expect(readStatuses['429'] ?? 0).toBeGreaterThan(0)
  expect(accepted).toBe(posted.length)
  expect(postP99).toBeLessThan(1_000)
  expect(readyP99).toBeLessThan(1_000)
  expect(readyStatuses).toEqual({ '200': readyMs.length })
  expectEachAcceptedOnce(ledger)
}, 180_000)
