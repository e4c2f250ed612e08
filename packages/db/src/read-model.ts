// The read model's check and repair. What it must hold is defined once, by the expected_* views
// of packages/db/sql (03_read_model.sql, 07_dora_facts.sql); the steps that keep it are there
// too, called by the triggers of 09_triggers.sql.
import type { Sql } from './client.ts'
import { inSnapshot } from './read/snapshot.ts'

/** The read model's tables, each with the view that computes it from the deployments. */
const TABLES = [
  { table: 'deployment_cells', expected: 'expected_deployment_cells' },
  { table: 'deployment_counts', expected: 'expected_deployment_counts' },
  { table: 'deployment_dora_facts', expected: 'expected_deployment_dora_facts' },
] as const

/** How one table of the read model differs from what the deployments say it must hold. */
export interface TableCheck {
  table: (typeof TABLES)[number]['table']
  rows: number
  /** Rows the deployments call for that the table lacks or holds with other values. */
  missing: number
  /** Rows the table holds that the deployments do not call for. */
  unexpected: number
  /** Up to five differing rows, as `-` (missing) or `+` (unexpected) and the row's JSON. */
  examples: string[]
}

/**
 * Recomputes the read model from the deployments and compares, in one snapshot (so writers may
 * go on meanwhile). Reads every deployment: seconds per million.
 */
export async function verifyReadModel(sql: Sql): Promise<TableCheck[]> {
  return inSnapshot(sql, async (tx) => {
    // A whole-table recount, run on purpose: no request deadline applies.
    await tx`set local statement_timeout = 0`
    const checks: TableCheck[] = []
    for (const { table, expected } of TABLES) {
      // One hash full join of whole rows: a row on one side only is missing or unexpected.
      const rows = await tx<{ side: '-' | '+' | '='; count: number; examples: string[] }[]>`
        select side, count(*)::int as count,
               (array_agg(row_to_json(row)::text) filter (where side <> '='))[1:5] as examples
          from (select case when actual.row is null then '-' when expected.row is null then '+' else '=' end as side,
                       coalesce(expected.row, actual.row) as row
                  from (select row(e.*) as row from ${tx(expected)} e) expected
                  full join (select row(t.*) as row from ${tx(table)} t) actual on actual.row = expected.row) compared
         group by side`
      const side = (name: '-' | '+' | '=') => rows.find((row) => row.side === name)
      const columns = await tx<{ name: string }[]>`
        select attname as name from pg_attribute
         where attrelid = ${table}::regclass and attnum > 0 and not attisdropped order by attnum`
      // Anonymous rows compare fastest but name their fields f1, f2…: put the names back.
      const named = (line: string) =>
        JSON.stringify(
          Object.fromEntries(
            Object.values(JSON.parse(line)).map((value, index) => [columns[index]?.name, value]),
          ),
        )
      checks.push({
        table,
        rows: (side('=')?.count ?? 0) + (side('+')?.count ?? 0),
        missing: side('-')?.count ?? 0,
        unexpected: side('+')?.count ?? 0,
        examples: [
          ...(side('-')?.examples ?? []).map((line) => `- ${named(line)}`),
          ...(side('+')?.examples ?? []).map((line) => `+ ${named(line)}`),
        ],
      })
    }
    return checks
  })
}

/** True when every table of the read model holds exactly what the deployments call for. */
export const readModelMatches = (checks: TableCheck[]) =>
  checks.every((check) => check.missing === 0 && check.unexpected === 0)

/**
 * Rebuilds the read model from the deployments. Writers wait meanwhile (a share lock on
 * deployments), so nothing lands between the recount and the commit.
 */
export async function rebuildReadModel(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`set local statement_timeout = 0`
    await tx`lock table deployments in share row exclusive mode`
    for (const { table, expected } of TABLES) {
      await tx`delete from ${tx(table)}`
      await tx`insert into ${tx(table)} select * from ${tx(expected)}`
    }
  })
}
