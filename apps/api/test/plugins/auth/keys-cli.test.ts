import { beforeAll, expect, test } from 'bun:test'
import { runCli } from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../../support/harness.ts'

const h = harnessPerFile()
let env: Record<string, string>
beforeAll(async () => {
  env = { DATABASE_URL: h.databaseUrl }
})

test('keys create prints the key alone on the last line, and it works at once', async () => {
  const created = await runCli(
    ['keys', 'create', '--workspace', 'cli-team', '--name', 'github actions'],
    env,
  )
  expect(created.code).toBe(0)
  const lines = created.stdout.trim().split('\n')
  const key = lines.at(-1) as string
  expect(key).toMatch(/^shiplog_[A-Za-z0-9_-]{43}$/)
  expect(created.stdout).toContain('(new workspace)')
  expect((await h.post(validDeployment(), { key })).status).toBe(202)
  const [stored] = await h.sql`select key_hash, prefix from api_keys where name = 'github actions'`
  expect(stored?.prefix).toBe(key.slice(0, 16))
  expect(Buffer.from(stored?.key_hash).toString('utf8')).not.toContain(key.slice(8))
})

test('keys list shows prefix, name, limit, last use and status, never the key', async () => {
  const created = await runCli(
    ['keys', 'create', '--workspace', 'cli-list', '--name', 'deployer', '--rate-limit', '30'],
    env,
  )
  const key = created.stdout.trim().split('\n').at(-1) as string
  expect((await h.post(validDeployment(), { key })).status).toBe(202)
  const listed = await runCli(['keys', 'list', '--workspace', 'cli-list'], env)
  expect(listed.code).toBe(0)
  const [header, row] = listed.stdout.trim().split('\n')
  expect(header).toMatch(
    /ID\s+WORKSPACE\s+NAME\s+PREFIX\s+SCOPES\s+LIMIT\/MIN\s+CREATED\s+LAST USED\s+STATUS/,
  )
  expect(row).toContain('deployer')
  expect(row).toContain(key.slice(0, 16))
  expect(row).toContain(' deployments:write,read ')
  expect(row).toContain(' 30 ')
  expect(row).toMatch(/active$/)
  expect(row).toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/)
  expect(listed.stdout).not.toContain(key)
})

test('--scope limits what a key may do: 403 with a problem body naming the scope it lacks', async () => {
  const create = async (name: string, ...scopes: string[]) => {
    const args = ['keys', 'create', '--workspace', 'cli-scopes', '--name', name]
    const created = await runCli([...args, ...scopes.flatMap((scope) => ['--scope', scope])], env)
    expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' })
    return created.stdout.trim().split('\n').at(-1) as string
  }
  const reader = await create('dashboard', 'read')
  const writer = await create('pipeline', 'deployments:write')
  const admin = await create('operator', 'admin')
  const both = await create('both', 'read,incidents:write', 'deployments:write')
  const placer = await create('placer', 'environments:write')

  const refused = await h.post(validDeployment(), { key: reader })
  expect(refused.status).toBe(403)
  expect(refused.headers.get('content-type')).toBe('application/problem+json')
  const problem = (await refused.json()) as Record<string, unknown>
  expect(problem).toMatchObject({ type: '/problems/forbidden', title: 'Forbidden', status: 403 })
  expect(String(problem.detail)).toContain('needs deployments:write')
  expect(String(problem.detail)).toContain('bun run keys create --scope deployments:write')

  const read = (key: string, path: string) => h.get(path, { key })
  for (const path of [
    '/v1/deployments',
    '/v1/applications',
    '/v1/environments',
    '/v1/state',
    '/v1/metrics/deployment-frequency?environment=production',
  ]) {
    expect({ path, status: (await read(writer, path)).status }).toEqual({ path, status: 403 })
    expect({ path, status: (await read(reader, path)).status }).toEqual({ path, status: 200 })
    expect({ path, status: (await read(admin, path)).status }).toEqual({ path, status: 200 })
  }
  // Checked before the body and the parameters: a key without the scope learns nothing more.
  expect((await h.post({ nonsense: true }, { key: reader })).status).toBe(403)
  expect((await read(writer, '/v1/deployments?limit=nope')).status).toBe(403)
  expect((await h.post(validDeployment({ version: 'w1' }), { key: writer })).status).toBe(202)
  expect((await h.post(validDeployment({ version: 'a1' }), { key: admin })).status).toBe(202)
  expect((await h.post(validDeployment({ version: 'b1' }), { key: both })).status).toBe(202)
  expect((await read(placer, '/v1/environments')).status).toBe(403)

  const listed = await runCli(['keys', 'list', '--workspace', 'cli-scopes'], env)
  expect(listed.stdout).toMatch(/dashboard .* read /)
  expect(listed.stdout).toMatch(/both .* read,incidents:write,deployments:write /)
  expect(listed.stdout).toMatch(/placer .* environments:write /)

  const bad = await runCli(
    ['keys', 'create', '--workspace', 'x', '--name', 'x', '--scope', 'root'],
    env,
  )
  expect(bad.code).toBe(2)
  expect(bad.stderr).toContain(
    '--scope must name one of deployments:write, incidents:write, environments:write, read, admin; got "root"',
  )
})

test('a --rate-limit key gets that quota', async () => {
  const created = await runCli(
    ['keys', 'create', '--workspace', 'cli-slow', '--name', 'slow', '--rate-limit', '2'],
    env,
  )
  const key = created.stdout.trim().split('\n').at(-1) as string
  const statuses = []
  for (let index = 0; index < 3; index++) {
    statuses.push((await h.post(validDeployment({ version: `s${index}` }), { key })).status)
  }
  expect(statuses).toEqual([202, 202, 429])
})

test('keys revoke by prefix stops the key within 5 seconds', async () => {
  const created = await runCli(
    ['keys', 'create', '--workspace', 'cli-revoke', '--name', 'old'],
    env,
  )
  const key = created.stdout.trim().split('\n').at(-1) as string
  expect((await h.post(validDeployment(), { key })).status).toBe(202)
  const revoked = await runCli(['keys', 'revoke', key.slice(0, 16)], env)
  expect(revoked.code).toBe(0)
  expect(revoked.stdout).toContain('Revoked key "old"')
  const revokedAt = Date.now()
  let status = 202
  while (status !== 401 && Date.now() - revokedAt < 5_000) {
    status = (await h.post(validDeployment(), { key })).status
  }
  expect(status).toBe(401)
  const listed = await runCli(['keys', 'list', '--workspace', 'cli-revoke'], env)
  expect(listed.stdout).toMatch(/revoked \d{4}-/)
  expect((await runCli(['keys', 'revoke', key.slice(0, 16)], env)).stdout).toContain(
    'already revoked',
  )
})

test('usage mistakes exit 2 with the usage; unknown keys exit 1', async () => {
  const missing = await runCli(['keys', 'create', '--workspace', 'Bad Slug', '--name', 'x'], env)
  expect(missing.code).toBe(2)
  expect(missing.stderr).toContain('Usage:')
  const badLimit = await runCli(
    ['keys', 'create', '--workspace', 'ok', '--name', 'x', '--rate-limit', '-1'],
    env,
  )
  expect(badLimit.code).toBe(2)
  // Past what the database holds: the same usage answer, not a Postgres error.
  const hugeLimit = await runCli(
    ['keys', 'create', '--workspace', 'ok', '--name', 'x', '--rate-limit', '99999999999'],
    env,
  )
  expect(hugeLimit.code).toBe(2)
  expect(hugeLimit.stderr).toContain(
    '--rate-limit must be a whole number of requests per minute, from 1 to 2,147,483,647',
  )
  expect(hugeLimit.stderr).not.toMatch(/postgres|out of range/i)
  const unknown = await runCli(['keys', 'revoke', 'shiplog_nothing1'], env)
  expect(unknown.code).toBe(1)
  expect(unknown.stderr).toContain('no key matches')
})

test('--name must be printable text of at most 100 characters: nothing is stored otherwise', async () => {
  const refused: [string, string][] = [
    ['line\r\nbreak', 'control characters'],
    ['tab\there', 'control characters'],
    ['\u001b[31mred', 'control characters'],
    ['c1\u009bcontrol', 'U+009B'],
    ['bidi\u202Eflip', 'U+202E RIGHT-TO-LEFT OVERRIDE'],
    ['zero\u200Bwidth', 'U+200B ZERO WIDTH SPACE'],
    ['   ', 'must not be empty'],
    ['n'.repeat(101), 'at most 100 characters'],
  ]
  for (const [name, message] of refused) {
    const created = await runCli(
      ['keys', 'create', '--workspace', 'cli-names', '--name', name],
      env,
    )
    expect({ name, code: created.code, stderr: created.stderr }).toEqual({
      name,
      code: 2,
      stderr: expect.stringContaining(message),
    })
  }
  const [none] = await h.sql`
    select count(*)::int as count from api_keys k join workspaces w on w.id = k.workspace_id
     where w.slug = 'cli-names'`
  expect(none?.count).toBe(0)
  const accepted = await runCli(
    ['keys', 'create', '--workspace', 'cli-names', '--name', ` Cafe\u0301 ${'n'.repeat(94)} `],
    env,
  )
  expect(accepted.code).toBe(0)
  const [stored] = await h.sql`select name from api_keys where name like 'Caf%'`
  expect(stored?.name).toBe(`Caf\u00e9 ${'n'.repeat(94)}`)
})

test('--help and -h print the usage on stdout and exit 0, for every command, whatever the configuration', async () => {
  // A bad DATABASE_URL shows help needs neither configuration nor a database.
  const broken = { DATABASE_URL: 'not a url' }
  for (const args of [
    ['keys', '--help'],
    ['keys', 'create', '-h'],
    ['jobs', '--help'],
    ['jobs', 'retry', '-h'],
    ['migrate', '--help'],
  ]) {
    const run = await runCli(args, broken)
    expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: '' })
    expect(run.stdout).toStartWith('Usage:\n')
    expect(run.stdout).toContain(`bun run ${args[0]} `)
    expect(run.stdout).not.toContain('Unknown option')
  }
})

test('migrate refuses arguments it does not know instead of migrating anyway', async () => {
  const run = await runCli(['migrate', '--dry-run'], env)
  expect(run.code).toBe(2)
  expect(run.stderr).toContain("Unknown option '--dry-run'")
  expect(run.stderr).toContain('Usage:')
})
