import { afterAll, beforeAll, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { deploymentStatusFacts, waitFor } from '@shiplog/db/testing'
import { type DeliverySent, type HookTarget, postDelivery } from '../harness/hook-driver.ts'
import { recordScenario } from '../harness/results.ts'
import { Stack } from '../harness/stack.ts'

const DELIVERIES = 400
const KILLS = 3
// Kill k comes once k segments were answered, and the deliveries of segment k + 1 wait for it:
// every kill lands while a segment arrives, and the last segment arrives after the last kill.
const SEGMENT = DELIVERIES / (KILLS + 2)
const SENDERS = 3
const PAUSE_MS = 40
// Redelivered at once after their answer, or once every delivery was sent.
const redeliveredAtOnce = (n: number) => n % 20 === 0
const redeliveredLater = (n: number) => n % 20 === 10

let stack: Stack
beforeAll(async () => {
  stack = await Stack.create()
})
afterAll(() => stack?.close())

async function githubIntegration(base: string): Promise<{ id: string; secret: string }> {
  const { key } = await issueApiKey(stack.sql, {
    workspace: 'faults',
    name: 'integrations',
    scopes: ['admin'],
  })
  const response = await fetch(`${base}/v1/integrations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ source: 'github', name: 'faults' }),
  })
  expect(response.status).toBe(201)
  return (await response.json()) as { id: string; secret: string }
}

const countDeliveries = async (integrationId: string, state: string) => {
  const [row] = await stack.sql<{ count: number }[]>`
    select count(*)::int as count from integration_deliveries
     where integration_id = ${integrationId} and state = ${state}`
  return row?.count ?? 0
}

test('kill -9 of the worker while GitHub deliveries arrive: each delivery recorded once, each redelivery a duplicate', async () => {
  const api = await stack.startApi({
    INTEGRATION_SEALING_KEY: randomBytes(32).toString('base64'),
  })
  const integration = await githubIntegration(api.base)
  const target: HookTarget = {
    url: `${api.base}/hooks/${integration.id}`,
    secret: integration.secret,
    startMs: Date.now() - 86_400_000,
  }
  const recorded = () => countDeliveries(integration.id, 'recorded')

  let worker = stack.startWorker()
  const sent: DeliverySent[] = []
  const answered = () => sent.filter((each) => !each.redelivery).length
  let kills = 0
  let next = 0
  const send = async () => {
    while (next < DELIVERIES) {
      const n = next++
      const segment = Math.floor(n / SEGMENT)
      if (segment >= 2)
        await waitFor(
          () => kills >= segment - 1,
          `kill ${segment - 1} before delivery ${n}`,
          60_000,
        )
      const original = await postDelivery(target, n)
      sent.push(original)
      if (redeliveredAtOnce(n)) sent.push(await postDelivery(target, n, true))
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS))
    }
  }
  const senders = Promise.all(Array.from({ length: SENDERS }, send))

  const atKills: { answered: number; waiting: number; recorded: number }[] = []
  for (let kill = 1; kill <= KILLS; kill++) {
    const recordedBefore = await recorded()
    // The worker has done some of the work: the kill lands in its loops, not before them.
    await waitFor(
      async () => answered() >= kill * SEGMENT && (await recorded()) > recordedBefore,
      `${kill * SEGMENT} answered deliveries and the worker at work`,
      60_000,
    )
    worker.signal('SIGKILL')
    const exited = await worker.exited
    expect(exited.signal).toBe('SIGKILL')
    atKills.push({
      answered: answered(),
      waiting: await countDeliveries(integration.id, 'received'),
      recorded: await recorded(),
    })
    kills = kill
    worker = stack.startWorker()
  }
  const restartedAt = Date.now()
  await senders
  const later = Array.from({ length: DELIVERIES }, (_, n) => n).filter(redeliveredLater)
  sent.push(...(await Promise.all(later.map((n) => postDelivery(target, n, true)))))

  await waitFor(
    async () => (await countDeliveries(integration.id, 'received')) === 0,
    'no delivery left waiting',
    60_000,
  )
  await stack.untilDrained(DELIVERIES)
  const drainSeconds = (Date.now() - restartedAt) / 1000
  const unfinished = await stack.pendingJobs()

  const deliveries = await stack.sql<
    { id: string; state: string; duplicateOf: string | null; deploymentId: string | null }[]
  >`
    select id::text as id, state, duplicate_of::text as "duplicateOf",
           deployment_id::text as "deploymentId"
      from integration_deliveries where integration_id = ${integration.id}`
  const byId = new Map(deliveries.map((row) => [row.id, row]))
  const rows = await stack.sql<{ key: string; count: number }[]>`
    select concat_ws('|', a.name, e.name, d.version, d.commit_hash,
                     (extract(epoch from d.deployed_at) * 1000)::bigint) as key,
           count(*)::int as count
      from deployments d
      join applications a on a.id = d.application_id
      join environments e on e.id = d.environment_id
     where d.source = 'github'
     group by 1`
  const recordedByKey = new Map(rows.map((row) => [row.key, row.count]))
  const expectedKeys = Array.from({ length: DELIVERIES }, (_, n) => {
    const facts = deploymentStatusFacts(n, target.startMs)
    return [
      facts.app,
      facts.environment,
      facts.version,
      facts.commitHash,
      Date.parse(facts.deployedAt),
    ].join('|')
  })
  const lost = expectedKeys.filter((key) => !recordedByKey.has(key)).length
  const doubled = rows.reduce((sum, row) => sum + row.count - 1, 0)
  const unexpected = rows.filter((row) => !expectedKeys.includes(row.key)).length
  const [{ count: allDeployments = 0 } = {}] = await stack.sql<{ count: number }[]>`
    select count(*)::int as count from deployments`
  const [{ count: linked = 0 } = {}] = await stack.sql<{ count: number }[]>`
    select count(distinct d.id)::int as count
      from integration_deliveries i join deployments d on d.id = i.deployment_id
     where i.integration_id = ${integration.id} and i.state = 'recorded'`

  const originals = sent.filter((each) => !each.redelivery)
  const redeliveries = sent.filter((each) => each.redelivery)
  const firstOf = new Map(originals.map((each) => [each.n, each.delivery]))
  const statuses: Record<string, number> = {}
  for (const each of sent) statuses[each.status] = (statuses[each.status] ?? 0) + 1

  expect(originals).toHaveLength(DELIVERIES)
  expect(originals.filter((each) => each.status !== 202)).toEqual([])
  expect(redeliveries.filter((each) => each.status !== 200)).toEqual([])
  for (const each of redeliveries) {
    expect(each.duplicateOf).toBe(firstOf.get(each.n) as string)
    expect(byId.get(each.delivery as string)?.state).toBe('duplicate')
    expect(byId.get(each.delivery as string)?.duplicateOf).toBe(firstOf.get(each.n) as string)
  }
  for (const each of originals) expect(byId.get(each.delivery as string)?.state).toBe('recorded')
  expect(deliveries).toHaveLength(originals.length + redeliveries.length)
  expect(lost).toBe(0)
  expect(doubled).toBe(0)
  expect(unexpected).toBe(0)
  expect(allDeployments).toBe(DELIVERIES)
  expect(linked).toBe(DELIVERIES)
  expect(unfinished).toEqual({})
  expect(worker.child.exitCode).toBeNull()

  await recordScenario({
    id: '1b-github-worker-kill',
    title: 'kill -9 of the worker while signed GitHub deliveries and redeliveries arrive',
    passed: true,
    figures: {
      'deliveries sent (distinct deployments)': originals.length,
      'redeliveries (same X-GitHub-Delivery)': redeliveries.length,
      answers: Object.entries(statuses)
        .map(([status, count]) => `${count} × ${status}`)
        .join(', '),
      'worker kills (SIGKILL), each restarted at once': KILLS,
      'at each kill: answered / waiting / recorded': atKills
        .map((at) => `${at.answered} / ${at.waiting} / ${at.recorded}`)
        .join('; '),
      'deliveries left waiting': deliveries.filter((row) => row.state === 'received').length,
      'deployments recorded (source github)': rows.reduce((sum, row) => sum + row.count, 0),
      'recorded twice': doubled,
      lost,
      'redeliveries kept as duplicate': redeliveries.filter(
        (each) => byId.get(each.delivery as string)?.state === 'duplicate',
      ).length,
      'jobs left active or queued': Object.values(unfinished).reduce(
        (sum, count) => sum + count,
        0,
      ),
      'from the last restart to everything recorded': `${drainSeconds.toFixed(1)} s`,
    },
  })
}, 120_000)
