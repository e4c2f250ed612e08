import { createSql } from '@shiplog/db/client'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { DEFAULT_RETRY_POLICY } from '@shiplog/db/queue'
import { createTestDatabase } from '@shiplog/db/testing'
import { deploymentBodies } from './fixtures.ts'
import type { LoadPlan, LoadResult, PacedPlan, PacedResult } from './load-messages.ts'
import { type BenchProcess, runLoad, startProcess, waitUntilReady } from './processes.ts'

/** How long each phase runs and how hard it pushes. */
export interface IngestPlan {
  port: number
  saturationConnections: number
  saturationSeconds: number
  pacedRate: number
  pacedSeconds: number
  /** Extra flags for the API's Bun process (BENCH_API_FLAGS), e.g. `--cpu-prof-md`. */
  apiRuntimeFlags?: string[]
}

/** What one API configuration achieved. */
export interface IngestResult {
  saturation: LoadResult & { acceptedPerSecond: number }
  paced: PacedResult
  memory: { peakKiB: number; anonKiB: number; fileKiB: number }
  exitCode: number | null
}

/**
 * Starts the API (as production does, request logs on) against a fresh database, warms it up,
 * drives it at saturation with autocannon, then at a fixed rate with the paced generator.
 */
export async function measureIngest(
  apiEnv: Record<string, string>,
  plan: IngestPlan,
): Promise<IngestResult> {
  const database = await createTestDatabase(DEFAULT_RETRY_POLICY)
  const sql = createSql(database.url, { applicationName: 'shiplog-bench', maxConnections: 1 })
  try {
    const { key } = await issueApiKey(sql, {
      workspace: 'bench',
      name: 'bench',
      rateLimitPerMinute: 1_000_000_000,
    })
    const api = startProcess(
      'apps/api/src/main.ts',
      // METRICS_PORT 0: any free port, so a run never fails on a busy 9091; nothing scrapes it.
      { DATABASE_URL: database.url, PORT: String(plan.port), METRICS_PORT: '0', ...apiEnv },
      plan.apiRuntimeFlags,
    )
    try {
      return await drive(api, key, plan)
    } finally {
      await api.stop()
    }
  } finally {
    await sql.end()
    await database.drop()
  }
}

async function drive(api: BenchProcess, key: string, plan: IngestPlan): Promise<IngestResult> {
  const base = `http://127.0.0.1:${plan.port}`
  await waitUntilReady(`${base}/readyz`, api)
  const url = `${base}/v1/deployments`
  const bodies = deploymentBodies(1_000)
  await runLoad<LoadResult>('load.ts', {
    url,
    key,
    bodies,
    connections: 50,
    durationSeconds: 3,
  } satisfies LoadPlan)
  const saturation = await runLoad<LoadResult>('load.ts', {
    url,
    key,
    bodies,
    connections: plan.saturationConnections,
    durationSeconds: plan.saturationSeconds,
  } satisfies LoadPlan)
  const paced = await runLoad<PacedResult>('paced-load.ts', {
    url,
    key,
    bodies,
    rate: plan.pacedRate,
    durationSeconds: plan.pacedSeconds,
  } satisfies PacedPlan)
  const memory = api.memory()
  const exitCode = await api.stop()
  return {
    saturation: {
      ...saturation,
      acceptedPerSecond: saturation.accepted / saturation.durationSeconds,
    },
    paced,
    memory,
    exitCode,
  }
}
