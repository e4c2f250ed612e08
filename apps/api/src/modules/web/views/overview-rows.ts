import type { DeploymentMatrix, EnvironmentSummary } from '@shiplog/schema'

/** A mark beside a cell, in words (never colour alone). */
export type CellMark = 'rolled back' | 'failed' | 'open incident' | 'voided'

/** Two environments of a row and how many commits wait between them; count undefined: not asked. */
export interface Waiting {
  from: string
  to: string
  commits?: number
  complete?: boolean
}

/** A column of the overview: an environment in pipeline order. */
export interface OverviewColumn {
  name: string
  production: boolean
  /** An incident open in the whole environment (no application named). */
  openIncident: boolean
}

/** A row of the overview: an application, its cells with their marks, and what waits. */
export interface OverviewRow {
  app: string
  repositoryFullName: string
  /** One per column; null where the application was never deployed. */
  cells: (
    | (NonNullable<DeploymentMatrix['rows'][number]['cells'][number]> & {
        marks: CellMark[]
      })
    | null
  )[]
  waiting?: Waiting
}

/**
 * The pair a row's waiting count compares: the first production environment, and the last
 * environment before it where the application runs. Undefined when there is no such pair.
 */
export function promotionPair(
  columns: readonly Pick<EnvironmentSummary, 'production'>[],
  cells: readonly unknown[],
): { from: number; to: number } | undefined {
  const to = columns.findIndex((column) => column.production)
  if (to <= 0) return undefined
  for (let from = to - 1; from >= 0; from--) {
    if (cells[from] && !columns[from]?.production) return { from, to }
  }
  return undefined
}
