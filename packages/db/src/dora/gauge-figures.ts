// The DORA figures the worker exports to Prometheus: for each workspace, its production
// environments together and its other environments together, over the 7 and 28 days before one
// instant, by the one DORA statement (statement.ts), so each equals GET /v1/metrics/dora for the
// same environments and window. Per application only for the busiest few of each workspace.

import { inPipelineOrder } from '@shiplog/schema'
import type { Tx } from '../client.ts'
import { type DoraRow, doraStatement, type PeriodRows } from './statement.ts'
import { DAY_MICROS, isoOf } from './time-units.ts'

/** The rolling windows exported, by their label. */
export const GAUGE_WINDOWS = [
  { label: '7d', days: 7n },
  { label: '28d', days: 28n },
] as const

export type GaugeWindowLabel = (typeof GAUGE_WINDOWS)[number]['label']

/** The window the busiest applications are ranked by. */
const RANKING_WINDOW: GaugeWindowLabel = '28d'

/** One set of figures: a workspace's production (or other) environments over a window. */
export interface GaugeGroup {
  workspace: string
  production: boolean
  window: GaugeWindowLabel
  /** The application's name, for its own figures; absent for the environments' together. */
  app?: string
  row: DoraRow
}

/** Every figure exported, as of `until`. */
export interface DoraGaugeFigures {
  /** The end of every window (exclusive), ISO 8601 to the second. */
  until: string
  groups: GaugeGroup[]
  /** Per workspace, the applications deployed in the ranking window left without figures of their own. */
  truncated: { workspace: string; applications: number }[]
}

/** What to compute: as of `until` (microseconds), with the busiest `topApplications` per workspace. */
export interface GaugeSettings {
  until: bigint
  /** 0: no per-application figures. */
  topApplications: number
}

interface EnvironmentRow {
  workspaceId: string
  workspace: string
  name: string
  nameKey: string
  position: number | null
  production: boolean | null
}

/** The figures of every workspace, read in the caller's transaction (one snapshot). */
export async function doraGaugeFigures(tx: Tx, settings: GaugeSettings): Promise<DoraGaugeFigures> {
  const environments = await tx<EnvironmentRow[]>`
    select w.id::text as "workspaceId", w.slug as workspace, e.name, e.name_key as "nameKey",
           e.position, e.production
      from environments e join workspaces w on w.id = e.workspace_id
     order by w.slug`
  const groups: GaugeGroup[] = []
  const truncated: DoraGaugeFigures['truncated'] = []
  for (const [workspaceId, ofWorkspace] of byWorkspace(environments)) {
    const workspace = ofWorkspace[0]?.workspace as string
    const perApplication = new Map<boolean, PeriodRows[]>()
    for (const production of [true, false]) {
      const environmentKeys = inPipelineOrder(ofWorkspace)
        .filter((environment) => environment.production === production)
        .map((environment) => environment.nameKey)
      if (environmentKeys.length === 0) continue
      const periods = await doraStatement(
        tx,
        { workspaceId, environmentKeys },
        GAUGE_WINDOWS.map(({ days }) => ({
          since: settings.until - days * DAY_MICROS,
          until: settings.until,
          whole: true,
          split: settings.topApplications > 0 ? ('application' as const) : undefined,
        })),
      )
      if (!periods) continue
      GAUGE_WINDOWS.forEach(({ label }, index) => {
        const row = periods[index]?.whole
        if (row) groups.push({ workspace, production, window: label, row })
      })
      perApplication.set(production, periods)
    }
    if (settings.topApplications === 0) continue
    const { kept, left } = await busiestApplications(tx, perApplication, settings.topApplications)
    truncated.push({ workspace, applications: left })
    for (const [production, periods] of perApplication) {
      GAUGE_WINDOWS.forEach(({ label }, index) => {
        for (const [applicationId, row] of periods[index]?.applications ?? []) {
          const app = kept.get(applicationId)
          if (app !== undefined) groups.push({ workspace, production, window: label, app, row })
        }
      })
    }
  }
  return { until: isoOf(settings.until), groups, truncated }
}

function byWorkspace(environments: EnvironmentRow[]): Map<string, EnvironmentRow[]> {
  const grouped = new Map<string, EnvironmentRow[]>()
  for (const environment of environments) {
    const list = grouped.get(environment.workspaceId) ?? []
    list.push(environment)
    grouped.set(environment.workspaceId, list)
  }
  return grouped
}

/**
 * The `top` applications with the most deployments in the ranking window, production and other
 * environments together (ties by name), by id with their names, and how many deployed ones are
 * left out.
 */
async function busiestApplications(
  tx: Tx,
  perApplication: Map<boolean, PeriodRows[]>,
  top: number,
): Promise<{ kept: Map<string, string>; left: number }> {
  const ranking = GAUGE_WINDOWS.findIndex(({ label }) => label === RANKING_WINDOW)
  const deployments = new Map<string, number>()
  for (const periods of perApplication.values()) {
    for (const [applicationId, row] of periods[ranking]?.applications ?? []) {
      deployments.set(applicationId, (deployments.get(applicationId) ?? 0) + row.deployments)
    }
  }
  const named = await tx<{ id: string; name: string }[]>`
    select id::text, name from applications where id = any(${[...deployments.keys()]}::bigint[])`
  const ranked = named.sort(
    (a, b) =>
      (deployments.get(b.id) ?? 0) - (deployments.get(a.id) ?? 0) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  )
  return {
    kept: new Map(ranked.slice(0, top).map(({ id, name }) => [id, name])),
    left: Math.max(0, ranked.length - top),
  }
}
