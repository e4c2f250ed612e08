import type { DeploymentMatrix } from '@shiplog/schema'

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
