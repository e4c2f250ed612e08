import type { DoraFigures, DoraMetrics } from '@shiplog/schema'
import { csvLines } from '../../kernel/csv.ts'

/** The columns of the DORA CSV: a bucket's start, then each figure by its JSON path. */
export const DORA_CSV_COLUMNS = [
  'start',
  'deploymentFrequency.deployments',
  'deploymentFrequency.perDay',
  'changeLeadTime.commits',
  'changeLeadTime.medianSeconds',
  'changeLeadTime.p90Seconds',
  'changeFailRate.failed',
  'changeFailRate.deployments',
  'changeFailRate.ratio',
  'failedDeploymentRecoveryTime.recoveries',
  'failedDeploymentRecoveryTime.medianSeconds',
  'failedDeploymentRecoveryTime.open',
  'deploymentReworkRate.rework',
  'deploymentReworkRate.deployments',
  'deploymentReworkRate.ratio',
] as const

type Column = (typeof DORA_CSV_COLUMNS)[number]

/** One line per bucket of the series, as the JSON has them (an empty field for `null`). */
export function doraSeriesCsv(metrics: DoraMetrics): string {
  const rows = metrics.series.map((bucket) => {
    const row: { [column in Column]?: string | number | null } = { start: bucket.start }
    for (const column of DORA_CSV_COLUMNS.slice(1)) {
      const [key, field] = column.split('.') as [keyof DoraFigures, string]
      row[column] = (bucket[key] as Record<string, number | null>)[field] ?? null
    }
    return row
  })
  return `${DORA_CSV_COLUMNS.join(',')}\r\n${csvLines(DORA_CSV_COLUMNS, rows)}`
}
