// The DORA figures on the worker's /metrics (opt-in: DORA_METRICS_ENABLED). Counts, not ratios,
// so Prometheus can divide them as it likes, and quantiles as gauges. A timer computes them (one
// replica at a time) and reads what was computed; a scrape only reads memory, and no sample
// carries a timestamp of its own.

import type { Sql } from '@shiplog/db/client'
import type { DoraGaugeFigures, GaugeGroup } from '@shiplog/db/dora/gauge-figures'
import { computeDoraGaugesIfDue, storedDoraGauges } from '@shiplog/db/dora/gauge-snapshot'
import type { DoraRow } from '@shiplog/db/dora/statement'
import type { LogLine } from '@shiplog/ops-http/log'
import { Gauge, type Registry } from 'prom-client'

export interface DoraGaugeSettings {
  intervalMs: number
  /** 0: no per-application series. */
  topApplications: number
}

const GROUP_LABELS = ['workspace', 'production', 'window'] as const
const APPLICATION_LABELS = [...GROUP_LABELS, 'app'] as const

/** A count of the DORA statement's row, exported per group (and per application, where kept). */
const COUNTS = [
  {
    name: 'shiplog_dora_deployments',
    perApplication: 'shiplog_dora_application_deployments',
    help: 'Deployments recorded in the window.',
    of: (row: DoraRow) => row.deployments,
  },
  {
    name: 'shiplog_dora_changes',
    perApplication: 'shiplog_dora_application_changes',
    help: 'Deployments in the window that change what runs (initial or forward): the change fail rate’s denominator.',
    of: (row: DoraRow) => row.changes,
  },
  {
    name: 'shiplog_dora_failed_changes',
    perApplication: 'shiplog_dora_application_failed_changes',
    help: 'Changes in the window that failed (a rollback, revert or incident followed).',
    of: (row: DoraRow) => row.failed,
  },
  {
    name: 'shiplog_dora_rework_deployments',
    help: 'Deployments in the window that fixed an earlier failure (rework).',
    of: (row: DoraRow) => row.rework,
  },
  {
    name: 'shiplog_dora_recoveries',
    help: 'Failed deployments in the window that have recovered.',
    of: (row: DoraRow) => row.recoveries,
  },
  {
    name: 'shiplog_dora_open_failures',
    help: 'Failed deployments in the window not yet recovered.',
    of: (row: DoraRow) => row.open,
  },
  {
    name: 'shiplog_dora_lead_time_commits',
    help: 'Commits first delivered in the window, each with a lead time.',
    of: (row: DoraRow) => row.leadCommits,
  },
] as const satisfies {
  name: string
  perApplication?: string
  help: string
  of: (row: DoraRow) => number
}[]

const labelsOf = (group: GaugeGroup) => ({
  workspace: group.workspace,
  production: String(group.production),
  window: group.window,
})

/** The gauges, registered in `registry`, and the timer that fills them. */
export function createDoraGauges(
  registry: Registry,
  sql: Sql,
  settings: DoraGaugeSettings,
  log: LogLine,
) {
  const registers = [registry]
  const perApplication = settings.topApplications > 0
  const counts = COUNTS.map((count) => ({
    of: count.of,
    gauge: new Gauge({
      name: count.name,
      help: `${count.help} Per workspace, production or other environments, and window (7d, 28d).`,
      labelNames: GROUP_LABELS,
      registers,
    }),
    applicationGauge:
      perApplication && 'perApplication' in count
        ? new Gauge({
            name: count.perApplication,
            help: `${count.help} Per application, for the busiest DORA_METRICS_TOP_APPLICATIONS of each workspace.`,
            labelNames: APPLICATION_LABELS,
            registers,
          })
        : undefined,
  }))
  const leadTime = new Gauge({
    name: 'shiplog_dora_lead_time_seconds',
    help: 'Lead time for changes, commit to deployment, of the commits first delivered in the window: the median (quantile 0.5) and 90th percentile (0.9). Absent without such commits.',
    labelNames: [...GROUP_LABELS, 'quantile'],
    registers,
  })
  const recoveryTime = new Gauge({
    name: 'shiplog_dora_recovery_time_seconds',
    help: 'Failed deployment recovery time of the window’s recovered failures: the median (quantile 0.5). Absent without recoveries.',
    labelNames: [...GROUP_LABELS, 'quantile'],
    registers,
  })
  const applicationLeadTime = perApplication
    ? new Gauge({
        name: 'shiplog_dora_application_lead_time_seconds',
        help: 'An application’s median lead time for changes (quantile 0.5) in the window. Absent without commits.',
        labelNames: [...APPLICATION_LABELS, 'quantile'],
        registers,
      })
    : undefined
  const truncated = perApplication
    ? new Gauge({
        name: 'shiplog_dora_applications_truncated',
        help: 'Applications of the workspace deployed in the last 28 days that have no series of their own (beyond DORA_METRICS_TOP_APPLICATIONS).',
        labelNames: ['workspace'],
        registers,
      })
    : undefined
  const computedAt = new Gauge({
    name: 'shiplog_dora_computed_timestamp_seconds',
    help: 'When the DORA figures were computed: the end of every window they count (Unix seconds). Absent until the first computation.',
    registers,
  })

  function show(figures: DoraGaugeFigures): void {
    const gauges = [leadTime, recoveryTime, applicationLeadTime, truncated, computedAt]
    for (const gauge of [
      ...counts.flatMap((count) => [count.gauge, count.applicationGauge]),
      ...gauges,
    ]) {
      gauge?.reset()
    }
    for (const group of figures.groups) {
      const labels = labelsOf(group)
      const { row } = group
      if (group.app === undefined) {
        for (const count of counts) count.gauge.set(labels, count.of(row))
        if (row.leadMedianSeconds !== null)
          leadTime.set({ ...labels, quantile: '0.5' }, row.leadMedianSeconds)
        if (row.leadP90Seconds !== null)
          leadTime.set({ ...labels, quantile: '0.9' }, row.leadP90Seconds)
        if (row.recoveryMedianSeconds !== null) {
          recoveryTime.set({ ...labels, quantile: '0.5' }, row.recoveryMedianSeconds)
        }
        continue
      }
      const ofApplication = { ...labels, app: group.app }
      for (const count of counts) count.applicationGauge?.set(ofApplication, count.of(row))
      if (row.leadMedianSeconds !== null) {
        applicationLeadTime?.set({ ...ofApplication, quantile: '0.5' }, row.leadMedianSeconds)
      }
    }
    for (const { workspace, applications } of figures.truncated) {
      truncated?.set({ workspace }, applications)
    }
    computedAt.set(Date.parse(figures.until) / 1000)
  }

  /** Computes the figures if this replica's turn is due, then shows what is stored. */
  async function refresh(now = new Date()): Promise<void> {
    const started = performance.now()
    if (await computeDoraGaugesIfDue(sql, settings, now)) {
      log({ msg: 'DORA gauges computed', ms: Math.round(performance.now() - started) })
    }
    const figures = await storedDoraGauges(sql)
    if (figures) show(figures)
  }

  let timer: ReturnType<typeof setInterval> | undefined
  let running: Promise<void> | undefined
  const tick = () => {
    running ??= refresh()
      .catch((error) =>
        log({ level: 'warn', msg: 'DORA gauges not refreshed', error: String(error) }),
      )
      .finally(() => {
        running = undefined
      })
  }
  return {
    refresh,
    start(): void {
      tick()
      timer = setInterval(tick, settings.intervalMs)
    },
    async stop(): Promise<void> {
      clearInterval(timer)
      await running
    },
  }
}

export type DoraGauges = ReturnType<typeof createDoraGauges>
