import type { Sql } from '@shiplog/db/client'
import { readModelMatches, verifyReadModel } from '@shiplog/db/read-model'

/**
 * Throws, naming each table that differs and its first differing rows, unless the read model
 * holds exactly what the deployments call for. `Stack.close` runs it after every scenario: no
 * fault may leave the trigger-kept tables out of step with the deployments.
 */
export async function expectReadModelExact(sql: Sql): Promise<void> {
  const checks = await verifyReadModel(sql)
  const summary = checks
    .map(({ table, rows, missing, unexpected }) =>
      missing + unexpected === 0
        ? `${table} ${rows} rows`
        : `${table} ${rows} rows, ${missing} missing, ${unexpected} unexpected`,
    )
    .join('; ')
  if (readModelMatches(checks)) {
    console.log(`read model matches the deployments: ${summary}`)
    return
  }
  const examples = checks.flatMap(({ table, examples }) =>
    examples.map((example) => `  ${table} ${example}`),
  )
  throw new Error(
    `READ MODEL DIFFERS from the deployments after this scenario: ${summary}\n${examples.join('\n')}`,
  )
}
