import { randomBytes } from 'node:crypto'
import { createSql, type Sql } from '@shiplog/db/client'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { DEFAULT_RETRY_POLICY } from '@shiplog/db/queue'
import { createTestDatabase, deploymentStatusSuccess, gitHubSignatureOf } from '@shiplog/db/testing'
import { deploymentBodies } from '../fixtures.ts'
import type { LoadPlan, LoadResult, SignedDeliveries } from '../load-messages.ts'
import { type BenchProcess, runLoad, startProcess, waitUntilReady } from '../processes.ts'

/** The load each endpoint gets: the ingest part's saturation. */
export interface HookPlan {
  port: number
  connections: number
  seconds: number
  /** Extra flags for the API's Bun process (BENCH_API_FLAGS), e.g. `--cpu-prof-md`. */
  apiRuntimeFlags?: string[]
}

/** The ingest part's warm-up, before each measured run. */
export const WARM_UP = { connections: 50, durationSeconds: 3 } as const

/** One saturated run: what autocannon counted, and the 202s per second. */
export interface Saturation extends LoadResult {
  perSecond: number
}

/** The receiver's run, with its warm-up, the deliveries signed for both, and what was stored. */
export interface ReceiverRun extends Saturation {
  warmUp: LoadResult
  bodyBytes: number
  signed: number
  signSeconds: number
  /** Deliveries in the database by state, once the API stopped. */
  stored: Record<string, number>
}

const saturationOf = (result: LoadResult): Saturation => ({
  ...result,
  perSecond: result.accepted / result.durationSeconds,
})

// Both APIs run alike: production's defaults, request logs on, and what the receiver needs (a
// sealing key, and a per-integration limit no run reaches).
const apiEnv = (databaseUrl: string, port: number) => ({
  DATABASE_URL: databaseUrl,
  PORT: String(port),
  METRICS_PORT: '0',
  INTEGRATION_SEALING_KEY: randomBytes(32).toString('base64'),
  INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000000000',
})

/** A fresh database, an API on it, then `use`; the API stopped and the database dropped after. */
async function onFreshApi<T>(
  plan: HookPlan,
  use: (run: { base: string; sql: Sql; api: BenchProcess }) => Promise<T>,
): Promise<T> {
  const database = await createTestDatabase(DEFAULT_RETRY_POLICY)
  const sql = createSql(database.url, { applicationName: 'shiplog-bench', maxConnections: 1 })
  try {
    const api = startProcess(
      'apps/api/src/main.ts',
      apiEnv(database.url, plan.port),
      plan.apiRuntimeFlags,
    )
    try {
      const base = `http://127.0.0.1:${plan.port}`
      await waitUntilReady(`${base}/readyz`, api)
      return await use({ base, sql, api })
    } finally {
      await api.stop()
    }
  } finally {
    await sql.end()
    await database.drop()
  }
}

/** POST /v1/deployments at saturation, as the ingest part drives it (batched, the defaults). */
export function measureDeployments(plan: HookPlan): Promise<Saturation> {
  return onFreshApi(plan, async ({ base, sql }) => {
    const { key } = await issueApiKey(sql, {
      workspace: 'bench',
      name: 'bench',
      rateLimitPerMinute: 1_000_000_000,
    })
    const target = { url: `${base}/v1/deployments`, key, bodies: deploymentBodies(1_000) }
    await runLoad<LoadResult>('load.ts', { ...target, ...WARM_UP } satisfies LoadPlan)
    const result = await runLoad<LoadResult>('load.ts', {
      ...target,
      connections: plan.connections,
      durationSeconds: plan.seconds,
    } satisfies LoadPlan)
    return saturationOf(result)
  })
}

/** Signs deliveries `first` to `first + count - 1` of a series, as GitHub would. */
function signSeries(secret: string, first: number, count: number, startMs: number) {
  const signatures = Array.from({ length: count }, (_, index) =>
    gitHubSignatureOf(secret, deploymentStatusSuccess(first + index, startMs)),
  )
  return { first, startMs, signatures } satisfies SignedDeliveries
}

/**
 * POST /hooks/{id} at saturation: a GitHub integration created through the API, then signed
 * deployment_status deliveries, each its own delivery and deployment. `expectedPerSecond` sizes
 * the series: twice that rate is signed, so none is sent twice.
 */
export function measureReceiver(plan: HookPlan, expectedPerSecond: number): Promise<ReceiverRun> {
  return onFreshApi(plan, async ({ base, sql, api }) => {
    const { key } = await issueApiKey(sql, {
      workspace: 'bench',
      name: 'bench-admin',
      scopes: ['admin'],
    })
    const created = await fetch(`${base}/v1/integrations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'github', name: 'bench' }),
    })
    if (created.status !== 201)
      throw new Error(
        `creating the integration answered ${created.status}: ${await created.text()}`,
      )
    const integration = (await created.json()) as { id: string; secret: string }
    const url = `${base}/hooks/${integration.id}`
    const startMs = Date.now() - 30 * 86_400_000
    const sized = (seconds: number) => Math.ceil(expectedPerSecond * seconds * 2) + 1_000

    const signStartedAt = performance.now()
    const warmUpSeries = signSeries(integration.secret, 0, sized(WARM_UP.durationSeconds), startMs)
    const series = signSeries(
      integration.secret,
      warmUpSeries.signatures.length,
      sized(plan.seconds),
      startMs,
    )
    const signSeconds = (performance.now() - signStartedAt) / 1000

    const warmUp = await runLoad<LoadResult>('load.ts', {
      url,
      deliveries: warmUpSeries,
      ...WARM_UP,
    } satisfies LoadPlan)
    const result = await runLoad<LoadResult>('load.ts', {
      url,
      deliveries: series,
      connections: plan.connections,
      durationSeconds: plan.seconds,
    } satisfies LoadPlan)
    // Stopped first, so every delivery it took has its commit.
    await api.stop()
    const rows = await sql<{ state: string; count: number }[]>`
      select state, count(*)::int as count from integration_deliveries group by state`
    return {
      ...saturationOf(result),
      warmUp,
      bodyBytes: Buffer.byteLength(deploymentStatusSuccess(series.first, startMs)),
      signed: warmUpSeries.signatures.length + series.signatures.length,
      signSeconds,
      stored: Object.fromEntries(rows.map((row) => [row.state, row.count])),
    }
  })
}
