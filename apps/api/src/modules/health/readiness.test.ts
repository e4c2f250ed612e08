import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createSql, type Sql } from '@shiplog/db/client'
import { currentSqlHash } from '@shiplog/db/current-sql'
import { createEmptyTestDatabase, createTestDatabase, type TestDatabase } from '@shiplog/db/testing'
import { Readiness } from './readiness.ts'

let migrated: TestDatabase
let empty: TestDatabase
let sql: Sql
let emptySql: Sql
beforeAll(async () => {
  ;[migrated, empty] = await Promise.all([createTestDatabase(), createEmptyTestDatabase()])
  sql = createSql(migrated.url, { applicationName: 'readiness-test', maxConnections: 2 })
  emptySql = createSql(empty.url, { applicationName: 'readiness-test', maxConnections: 2 })
})
afterAll(async () => {
  await Promise.all([sql?.end(), emptySql?.end()])
  await Promise.all([migrated?.drop(), empty?.drop()])
})

// A new Readiness each time: one keeps its answer for a second.
const check = (database: Sql) => new Readiness(database).check()

test('a database never migrated is not ready, and the answer says what to run', async () => {
  const state = await check(emptySql)
  expect(state.ready).toBe(false)
  expect(state.reason).toStartWith('database at migration 0, expected ')
  expect(state.reason).toEndWith(': run bun run migrate')
})

test("a database at this build's migrations without its functions, triggers and views is not ready", async () => {
  expect(await check(sql)).toEqual({ ready: true, reason: 'ok' })
  const hash = await currentSqlHash()
  await sql`update shiplog_current_sql set hash = 'an older build' where hash = ${hash}`
  try {
    expect(await check(sql)).toEqual({
      ready: false,
      reason: "database lacks this build's functions, triggers and views: run bun run migrate",
    })
  } finally {
    await sql`update shiplog_current_sql set hash = ${hash} where hash = 'an older build'`
  }
})

test("a rollout's migrate step applying the next build's SQL leaves this build's replicas ready", async () => {
  await sql`
    insert into shiplog_current_sql (hash, applied_at) values ('the next build', clock_timestamp())`
  expect(await check(sql)).toEqual({ ready: true, reason: 'ok' })
})
