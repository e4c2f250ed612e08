import type { Sql } from '@shiplog/db/client'
import { RARE_ENVIRONMENT } from '@shiplog/db/testing'
import type { ReadClient } from './client.ts'

/** One read request the benchmark times, in its costliest realistic form. */
export interface Endpoint {
  /** The row's name, the same at every size (the path's values may differ). */
  label: string
  path: string
  /** The median it must stay under at 5M deployments, in ms. */
  targetMs: number
  /** Whether the answer holds something: timing an empty answer would measure nothing. */
  hasData(body: unknown): boolean
}

const DAY_MS = 86_400_000
const REPOSITORY = 'acme/repo-001'

/** A list's answer holds items. */
export const listed = (body: unknown) => ((body as { data?: unknown[] }).data?.length ?? 0) > 0

/** An endpoint timed beside the others for comparison, without a target of its own. */
export const untargeted = (label: string, path: string, hasData = listed): Endpoint => ({
  label,
  path,
  targetMs: Number.POSITIVE_INFINITY,
  hasData,
})

/** A dashboard page: it holds data when its HTML has `marker`. */
export const page = (
  label: string,
  path: string,
  marker: string,
  targetMs = Number.POSITIVE_INFINITY,
): Endpoint => ({ label, path, targetMs, hasData: (body) => String(body).includes(marker) })
const stateRows = (body: unknown) => ((body as { rows?: unknown[] }).rows?.length ?? 0) > 0
const recorded = (body: unknown) => (body as { status?: string }).status === 'recorded'
const counted = (body: unknown) =>
  ((body as { totals?: number[] }).totals ?? []).some((count) => count > 0)

/**
 * Values picked from the seeded data: the deployment halfway through its time span, the busiest
 * application and the version the most deployments share (its listing has the most to sort).
 */
async function pickFixtures(sql: Sql, workspaceId: string) {
  const [middle] = await sql<{ id: string; commitHash: string; at: Date }[]>`
    select d.id, d.commit_hash as "commitHash", d.deployed_at as at
      from deployments d,
           (select min(deployed_at) + (max(deployed_at) - min(deployed_at)) / 2 as at
              from deployments where workspace_id = ${workspaceId}) half
     where d.workspace_id = ${workspaceId} and d.deployed_at >= half.at
     order by d.deployed_at
     limit 1`
  // The seed gives the lowest application ids the most deployments.
  const [busiest] = await sql<{ name: string }[]>`
    select name from applications where workspace_id = ${workspaceId} order by id limit 1`
  const [common] = await sql<{ version: string }[]>`
    select version from deployments where workspace_id = ${workspaceId}
     group by version order by count(*) desc, version limit 1`
  if (!middle || !busiest || !common) throw new Error('the workspace has no deployments to read')
  return { middle, busiestApp: busiest.name, commonVersion: common.version }
}

/**
 * A window end that is not midnight, so the first and last day (or week) are partial, at most
 * now; and the month the middle deployment falls in.
 */
function windows(now: Date, middle: Date) {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS
  const afternoon = today + (13 * 3600 + 37 * 60 + 12.345) * 1000
  const until = afternoon <= now.getTime() ? afternoon : afternoon - DAY_MS
  const iso = (ms: number) => new Date(ms).toISOString()
  return {
    until: iso(until),
    since400Days: iso(until - 400 * DAY_MS),
    since260Weeks: iso(until - 260 * 7 * DAY_MS),
    monthStart: iso(Date.UTC(middle.getUTCFullYear(), middle.getUTCMonth(), 1)),
    monthEnd: iso(Date.UTC(middle.getUTCFullYear(), middle.getUTCMonth() + 1, 1)),
  }
}

/** Every read endpoint with the values it is asked with at the database's current size. */
export async function chooseEndpoints(
  sql: Sql,
  workspaceId: string,
  client: ReadClient,
  now = new Date(),
): Promise<Endpoint[]> {
  const { middle, busiestApp, commonVersion } = await pickFixtures(sql, workspaceId)
  const w = windows(now, middle.at)
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString()
  const firstPage = (await client.get('/v1/deployments')).body as { nextCursor: string | null }
  if (!firstPage.nextCursor) throw new Error('GET /v1/deployments gave no nextCursor')
  const frequency = '/v1/metrics/deployment-frequency'
  const list = (label: string, path: string): Endpoint => ({
    label,
    path,
    targetMs: 50,
    hasData: listed,
  })
  return [
    list('GET /v1/deployments', '/v1/deployments'),
    list('GET /v1/deployments?limit=100', '/v1/deployments?limit=100'),
    list(
      'GET /v1/deployments?since=&until= (one month, mid-range)',
      `/v1/deployments?${q({ since: w.monthStart, until: w.monthEnd })}`,
    ),
    list(
      'GET /v1/deployments?cursor= (second page)',
      `/v1/deployments?${q({ cursor: firstPage.nextCursor })}`,
    ),
    list(
      'GET /v1/deployments?commitHash= (7 digits)',
      `/v1/deployments?${q({ commitHash: middle.commitHash.slice(0, 7) })}`,
    ),
    list(
      'GET /v1/deployments?version= (the most common version)',
      `/v1/deployments?${q({ version: commonVersion })}`,
    ),
    list('GET /v1/deployments?app= (busiest app)', `/v1/deployments?${q({ app: busiestApp })}`),
    list(
      'GET /v1/deployments?app=&environment=production (busiest app)',
      `/v1/deployments?${q({ app: busiestApp, environment: 'production' })}`,
    ),
    list(
      'GET /v1/deployments?environment=production',
      `/v1/deployments?${q({ environment: 'production' })}`,
    ),
    list(
      'GET /v1/deployments?environment= (rare environment)',
      `/v1/deployments?${q({ environment: RARE_ENVIRONMENT })}`,
    ),
    list(
      `GET /v1/deployments?repository=${REPOSITORY}`,
      `/v1/deployments?${q({ repository: REPOSITORY })}`,
    ),
    {
      label: 'GET /v1/deployments/{id}',
      path: `/v1/deployments/${middle.id}`,
      targetMs: 50,
      hasData: recorded,
    },
    list('GET /v1/applications', '/v1/applications'),
    list(
      `GET /v1/applications?repository=${REPOSITORY}`,
      `/v1/applications?${q({ repository: REPOSITORY })}`,
    ),
    list('GET /v1/environments', '/v1/environments'),
    { label: 'GET /v1/state', path: '/v1/state', targetMs: 50, hasData: stateRows },
    {
      label: `GET /v1/state?repository=${REPOSITORY}`,
      path: `/v1/state?${q({ repository: REPOSITORY })}`,
      targetMs: 50,
      hasData: stateRows,
    },
    {
      label: `GET ${frequency}?environment=production (default: 30 days)`,
      path: `${frequency}?${q({ environment: 'production' })}`,
      targetMs: 50,
      hasData: counted,
    },
    {
      label: `GET ${frequency}?environment=production&since=&until= (400 days)`,
      path: `${frequency}?${q({ environment: 'production', bucket: 'day', since: w.since400Days, until: w.until })}`,
      targetMs: 100,
      hasData: counted,
    },
    {
      label: `GET ${frequency}?environment=production&bucket=week&since=&until= (260 weeks)`,
      path: `${frequency}?${q({ environment: 'production', bucket: 'week', since: w.since260Weeks, until: w.until })}`,
      targetMs: 100,
      hasData: counted,
    },
    {
      label: `GET ${frequency}?environment=&since=&until= (rare environment, 400 days)`,
      path: `${frequency}?${q({ environment: RARE_ENVIRONMENT, bucket: 'day', since: w.since400Days, until: w.until })}`,
      targetMs: 100,
      hasData: counted,
    },
  ]
}
