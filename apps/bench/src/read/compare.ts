import { readFileSync } from 'node:fs'
import type { Sql } from '@shiplog/db/client'
import type { ReadClient } from './client.ts'
import { type Endpoint, page, untargeted } from './endpoints.ts'

/** How far production is behind staging in the promoted application: its deployments waiting. */
export const PROMOTED_BEHIND = 10

const compared = (body: unknown) => ((body as { commits?: unknown[] }).commits?.length ?? 0) > 0

/**
 * A realistic promotion on top of the seed, whose environments share no commit: production of the
 * busiest application now runs the commit staging ran `PROMOTED_BEHIND` deployments ago (one
 * deployment, through the triggers as the worker records it). Resolves with that application
 * and one that was never promoted, whose comparison walks as far as a comparison may.
 */
export async function promote(sql: Sql, workspaceId: string) {
  const [busiest, unpromoted] = await sql<{ id: string; name: string }[]>`
    select a.id::text, a.name from applications a
     where a.workspace_id = ${workspaceId}
       and exists (select 1 from deployment_cells c join environments e on e.id = c.environment_id
                    where c.application_id = a.id and e.name_key = 'staging')
       and exists (select 1 from deployment_cells c join environments e on e.id = c.environment_id
                    where c.application_id = a.id and e.name_key = 'production')
     order by a.id limit 2`
  if (!busiest || !unpromoted) throw new Error('no application runs in staging and production')
  await sql`
    insert into deployments (id, workspace_id, application_id, environment_id, version, commit_hash,
                             deployed_at, received_at, recorded_at)
    select gen_random_uuid(), d.workspace_id, d.application_id, production.id, d.version || '-promoted',
           d.commit_hash, now(), now(), now()
      from (select d.* from deployments d join environments e on e.id = d.environment_id
             where d.application_id = ${busiest.id} and e.name_key = 'staging'
             order by d.deployed_at desc offset ${PROMOTED_BEHIND} limit 1) d,
           (select id from environments where workspace_id = ${workspaceId} and name_key = 'production') production`
  return { promoted: busiest.name, unpromoted: unpromoted.name }
}

/** The comparisons timed beside the list's first page, the baseline. */
export function compareEndpoints(apps: { promoted: string; unpromoted: string }): Endpoint[] {
  const compare = (app: string) =>
    `/v1/compare?${new URLSearchParams({ app, from: 'staging', to: 'production' })}`
  return [
    untargeted('GET /v1/deployments?limit=50 (baseline)', '/v1/deployments?limit=50'),
    {
      label: `GET /v1/compare, staging ${PROMOTED_BEHIND} deployments ahead of production`,
      path: compare(apps.promoted),
      targetMs: 150,
      hasData: compared,
    },
    {
      label: 'GET /v1/compare, production never promoted (the 100-deployment walk)',
      path: compare(apps.unpromoted),
      targetMs: 150,
      hasData: compared,
    },
    page(
      `Page /ui/compare, staging ${PROMOTED_BEHIND} deployments ahead`,
      `/ui/compare?${new URLSearchParams({ app: apps.promoted, from: 'staging', to: 'production' })}`,
      '<tbody><tr>',
    ),
    page('Page /ui (overview: what waits, marks)', '/ui', 'commits waiting'),
  ]
}

const rssKiB = (pid: number) => {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(match?.[1] ?? 0)
}

/** What streaming every deployment as CSV cost. */
export interface ExportRun {
  rows: number
  bytes: number
  seconds: number
  rowsPerSecond: number
  /** The API's resident memory before the export, and its highest while it streamed (KiB). */
  rssBeforeKiB: number
  rssPeakKiB: number
}

/**
 * `path` (every deployment, or every commit) with `Accept: text/csv`, read as it streams (lines
 * counted, nothing kept), while the API's resident memory is sampled every 50 ms from /proc.
 */
export async function timeExport(
  base: string,
  key: string,
  apiPid: number,
  path: '/v1/deployments' | '/v1/commits' = '/v1/deployments',
): Promise<ExportRun> {
  const rssBeforeKiB = rssKiB(apiPid)
  let rssPeakKiB = rssBeforeKiB
  const sampler = setInterval(() => {
    rssPeakKiB = Math.max(rssPeakKiB, rssKiB(apiPid))
  }, 50)
  try {
    const started = performance.now()
    const response = await fetch(`${base}${path}`, {
      headers: { authorization: `Bearer ${key}`, accept: 'text/csv' },
    })
    if (response.status !== 200 || !response.body) {
      throw new Error(
        `the export answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
      )
    }
    let lines = 0
    let bytes = 0
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length
      for (const byte of chunk) if (byte === 10) lines++
    }
    const seconds = (performance.now() - started) / 1000
    rssPeakKiB = Math.max(rssPeakKiB, rssKiB(apiPid))
    const rows = lines - 1
    return { rows, bytes, seconds, rowsPerSecond: rows / seconds, rssBeforeKiB, rssPeakKiB }
  } finally {
    clearInterval(sampler)
  }
}

/** Warms the list and the compare up, as the timed rounds would; CSV needs its own warm-up. */
export async function warmExport(client: ReadClient): Promise<void> {
  await client.get('/v1/deployments?limit=50')
}
