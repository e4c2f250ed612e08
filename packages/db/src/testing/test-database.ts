import { createHash, randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import postgres from 'postgres'
import { readCurrentSql } from '../current-sql.ts'
import { type LocalPostgres, resolvePostgres } from '../embedded.ts'
import { migrateDatabase } from '../migrate.ts'
import { listMigrations } from '../migrations.ts'
import type { RetryPolicy } from '../queue/engine.ts'

/** Retries fast enough that dead-lettering can be observed within a test. */
export const TEST_RETRY_POLICY: RetryPolicy = {
  retryLimit: 2,
  retryDelaySeconds: 1,
  retryDelayMaxSeconds: 1,
}

let server: Promise<LocalPostgres> | undefined

/** The Postgres tests run against: `DATABASE_URL` if set, else the embedded one under `.data/`. */
export function testServer(): Promise<LocalPostgres> {
  server ??= resolvePostgres(process.env.DATABASE_URL)
  return server
}

const templatesBuilt = new Set<string>()

/**
 * Ends a test run: drops the templates this process built, so a run leaves no database behind,
 * and stops the embedded Postgres if this process started it.
 */
export async function stopTestServer(): Promise<void> {
  if (!server) return
  const { url, stop } = await server
  if (templatesBuilt.size > 0) {
    const admin = postgres(url, { max: 1, onnotice: () => {} })
    for (const name of templatesBuilt) await admin.unsafe(`drop database if exists "${name}"`)
    await admin.end()
  }
  await stop()
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

async function templateName(policy: RetryPolicy): Promise<string> {
  const hash = createHash('sha256')
  for (const migration of await listMigrations()) hash.update(await readFile(migration.path))
  hash.update((await readCurrentSql()).hash)
  hash.update(JSON.stringify(policy))
  const bossVersion = JSON.parse(
    await readFile(new URL(import.meta.resolve('pg-boss/package.json')), 'utf8'),
  ).version
  hash.update(String(bossVersion))
  return `shiplog_template_${hash.digest('hex').slice(0, 16)}`
}

// Built once per set of migrations and current-state SQL, under a lock, then renamed into place
// so no test ever clones a half-built template.
async function ensureTemplate(
  admin: postgres.Sql,
  adminUrl: string,
  name: string,
  policy: RetryPolicy,
) {
  await admin.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('shiplog-test-template'))`
    const [exists] = await tx`select 1 from pg_database where datname = ${name}`
    if (exists) return
    const building = `${name}_building`
    await admin.unsafe(`drop database if exists "${building}" with (force)`)
    await admin.unsafe(`create database "${building}"`)
    await migrateDatabase(withDatabase(adminUrl, building), policy)
    await admin.unsafe(`alter database "${building}" rename to "${name}"`)
    const stale = await tx<{ datname: string }[]>`
      select datname from pg_database where datname like 'shiplog_template_%' and datname <> ${name}`
    for (const { datname } of stale)
      await admin.unsafe(`drop database if exists "${datname}" with (force)`)
  })
}

/** A fresh, fully migrated database of its own for one test file; drop it when done. */
export interface TestDatabase {
  url: string
  drop(): Promise<void>
}

/** Clones the migrated template into a new database in a few tens of milliseconds. */
export async function createTestDatabase(
  policy: RetryPolicy = TEST_RETRY_POLICY,
): Promise<TestDatabase> {
  const { url: adminUrl } = await testServer()
  const admin = postgres(adminUrl, { max: 2, onnotice: () => {} })
  try {
    const template = await templateName(policy)
    await ensureTemplate(admin, adminUrl, template, policy)
    templatesBuilt.add(template)
    return await newDatabase(admin, adminUrl, `template "${template}"`)
  } finally {
    await admin.end()
  }
}

/** A new database with nothing in it, not even migrations: for tests of the migrate step. */
export async function createEmptyTestDatabase(): Promise<TestDatabase> {
  const { url: adminUrl } = await testServer()
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  try {
    return await newDatabase(admin, adminUrl, '')
  } finally {
    await admin.end()
  }
}

async function newDatabase(admin: postgres.Sql, adminUrl: string, options: string) {
  const name = `shiplog_test_${randomBytes(6).toString('hex')}`
  await admin.unsafe(`create database "${name}" ${options}`)
  return {
    url: withDatabase(adminUrl, name),
    async drop() {
      const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} })
      await dropper.unsafe(`drop database if exists "${name}" with (force)`)
      await dropper.end()
    },
  }
}
