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

/** Records as CSV lines, `columns` in order (CRLF ends each, as RFC 4180 has it). */
export function csvLines<C extends string>(
  columns: readonly C[],
  records: readonly { [column in C]?: string | number | null }[],
): string {
  let text = ''
  for (const record of records) {
    text += `${columns.map((column) => cellOf(record[column])).join(',')}\r\n`
  }
  return text
}

// A number is written as it is: a negative one (a lead time a skewed clock made negative) is a
// number to a spreadsheet, not a formula, and must read back as the JSON's.
const cellOf = (value: string | number | null | undefined) =>
  typeof value === 'number' ? String(value) : csvField(value ?? null)

/** Deployments as CSV lines. */
export const deploymentCsvLines = (records: readonly CsvRecord[]) =>
  csvLines(DEPLOYMENT_CSV_COLUMNS, records)
