import type { DeploymentStatus } from '@shiplog/schema'
import { csvLines } from '../../kernel/csv.ts'

/**
 * The columns of a deployments CSV, in order: the scalar fields a list's items had when the CSV
 * was published. A published contract, so fields added since (`source`) stay out (docs/api.md).
 */
export const DEPLOYMENT_CSV_COLUMNS = [
  'id',
  'status',
  'deployedAt',
  'repositoryFullName',
  'app',
  'environment',
  'version',
  'commitHash',
  'changeType',
  'author',
  'description',
  'monorepoPath',
  'receivedAt',
  'recordedAt',
] as const

type CsvRecord = Pick<DeploymentStatus, (typeof DEPLOYMENT_CSV_COLUMNS)[number]>

/** The header line of a deployments CSV. */
export const DEPLOYMENT_CSV_HEADER = `${DEPLOYMENT_CSV_COLUMNS.join(',')}\r\n`

/** Deployments as CSV lines. */
export const deploymentCsvLines = (records: readonly CsvRecord[]) =>
  csvLines(DEPLOYMENT_CSV_COLUMNS, records)
