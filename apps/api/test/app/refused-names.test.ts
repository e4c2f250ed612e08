import { beforeAll, expect, test } from 'bun:test'
import { runCli } from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

// Names stored before the names rule that it refuses today (an application with a zero-width
// space, a key named with an escape sequence): `bun run migrate` counts them, `bun run db:verify`
// lists them, printable, and nothing renames them.

const h = harnessPerFile()
let env: Record<string, string>
const LEGACY = {
  app: 'checkout\u200B',
  environment: 'prod\u202Euction',
  repository: 'acme/sh\u00ADop',
  incidentApp: 'checkout\uFE0F',
  key: 'deploy\u001b[2Jer',
}
beforeAll(async () => {
  env = { DATABASE_URL: h.databaseUrl }
  expect(
    (await h.post(validDeployment({ app: 'legacy-app', environment: 'legacy-env' }))).status,
  ).toBe(202)
  await h.drain()
  // As builds before the rule stored them: written straight to the tables.
  await h.sql`update applications set name = ${LEGACY.app} where name = 'legacy-app'`
  await h.sql`update environments set name = ${LEGACY.environment} where name = 'legacy-env'`
  await h.sql`update repositories set full_name = ${LEGACY.repository}`
  const [environment] = await h.sql<{ id: string }[]>`select id from environments limit 1`
  const [key] = await h.sql<{ id: string; workspace_id: string }[]>`
    select id, workspace_id from api_keys limit 1`
  await h.sql`
    insert into incidents (id, workspace_id, environment_id, app, app_key, title, started_at, created_by_key)
    values (gen_random_uuid(), ${key?.workspace_id as string}, ${environment?.id as string},
            ${LEGACY.incidentApp}, ${LEGACY.incidentApp}, 'x', now(), ${key?.id as string})`
  await h.sql`update api_keys set name = ${LEGACY.key}`
})

test('db:verify lists every stored name the rule refuses, printable, and renames none', async () => {
  const verified = await runCli(['db:verify'], env)
  expect({ code: verified.code, stderr: verified.stderr }).toEqual({ code: 0, stderr: '' })
  expect(verified.stdout).toContain('5 stored names break the names rule')
  const listed = verified.stdout.split('\n')
  for (const [table, printed, why] of [
    ['api_keys', 'deploy<U+001B>[2Jer', 'must not contain control characters'],
    ['applications', 'checkout<U+200B>', 'U+200B ZERO WIDTH SPACE'],
    ['environments', 'prod<U+202E>uction', 'U+202E RIGHT-TO-LEFT OVERRIDE'],
    ['incidents', 'checkout<U+FE0F>', 'U+FE0F'],
    ['repositories', 'acme/sh<U+00AD>op', 'U+00AD SOFT HYPHEN'],
  ] as const) {
    const line = listed.find((each) => each.startsWith(`${table} `)) ?? ''
    expect(line).toContain(printed)
    expect(line).toContain(why)
  }
  // Nothing a terminal would act on, or hide, reached the output.
  for (const hidden of ['\u001b', '\u200b', '\u202e', '\ufe0f', '\u00ad']) {
    expect(verified.stdout).not.toContain(hidden)
  }
  const [stored] = await h.sql`
    select (select name from applications) as app, (select name from environments) as environment,
           (select full_name from repositories) as repository, (select name from api_keys) as key`
  expect(stored).toEqual({
    app: LEGACY.app,
    environment: LEGACY.environment,
    repository: LEGACY.repository,
    key: LEGACY.key,
  })
})

test('migrate counts them and points to db:verify; keys list prints the name escaped', async () => {
  const migrated = await runCli(['migrate'], env)
  expect(migrated.code).toBe(0)
  expect(migrated.stdout).toContain(
    '5 stored names break the names rule and are kept as they are: bun run db:verify lists them.',
  )
  const keys = await runCli(['keys', 'list'], env)
  expect(keys.stdout).toContain('deploy<U+001B>[2Jer')
  expect(keys.stdout).not.toContain('\u001b')
})

test('the legacy application is still read; the rule refuses a new one spelled so', async () => {
  const applications = await (await h.get('/v1/applications')).json()
  expect(applications.data.map((each: { app: string }) => each.app)).toEqual([LEGACY.app])
  const again = await h.post(validDeployment({ app: LEGACY.app }))
  expect(again.status).toBe(422)
})
