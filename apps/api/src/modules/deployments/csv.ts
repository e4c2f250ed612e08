import type { DeploymentStatus } from '@shiplog/schema'

/** The columns of a deployments CSV, in order: the scalar fields of a list's items. */
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

// A spreadsheet runs a cell that starts like a formula; a leading ' makes it text (OWASP's advice
// for CSV injection). Pipelines name apps and write descriptions, so any cell may.
const FORMULA_START = /^[=+\-@\t\r]/

/** One field as RFC 4180 writes it: quoted when it holds a quote, comma or line break. */
export function csvField(value: string | null): string {
  if (value === null) return ''
  const text = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The header line of a deployments CSV. */
export const DEPLOYMENT_CSV_HEADER = `${DEPLOYMENT_CSV_COLUMNS.join(',')}\r\n`

/** Deployments as CSV lines (CRLF ends each, as RFC 4180 has it). */
export function deploymentCsvLines(records: readonly CsvRecord[]): string {
  let text = ''
  for (const record of records) {
    text += `${DEPLOYMENT_CSV_COLUMNS.map((column) => csvField(record[column] ?? null)).join(',')}\r\n`
  }
  return text
}
