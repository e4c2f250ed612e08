import { beforeAll, expect, test } from 'bun:test'
import examples from '@octokit/webhooks-examples'
import { runCli } from '@shiplog/db/testing'
import type { Integration } from '@shiplog/schema/integration'
import { harnessPerFile, TEST_SEALING_KEY } from '../support/harness.ts'
import { adminKey, deliverGitHub, deliverGitLab } from '../support/integrations.ts'

// `bun run integrations` against the harness's database, and the harness's API answering the
// senders: what the CLI creates on the server is what the API lists, verifies and deletes.

const h = harnessPerFile()
let env: Record<string, string>
beforeAll(() => {
  // The API's sealing key, as on the server; PUBLIC_URL and PORT left to each test.
  env = {
    DATABASE_URL: h.databaseUrl,
    INTEGRATION_SEALING_KEY: TEST_SEALING_KEY,
    PUBLIC_URL: '',
    PORT: '',
  }
})

const integrations = (args: string[], extra: Record<string, string> = {}) =>
  runCli(['integrations', ...args], { ...env, ...extra })

/** What `create` or `rotate` printed: the id, the URL and the secret to paste. */
function printed(stdout: string, secretLabel = 'Secret') {
  const line = (label: string) =>
    stdout.match(new RegExp(`^ {2}${label} +(\\S+)$`, 'm'))?.[1] as string
  return {
    id: stdout.match(/\(id ([0-9a-f-]{36})\)/)?.[1] as string,
    url: line('URL'),
    secret: line(secretLabel),
  }
}

async function created(args: string[], extra: Record<string, string> = {}) {
  const run = await integrations(['create', '--workspace', 'acme', ...args], extra)
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
  return { ...printed(run.stdout, args.includes('gitlab') ? 'Secret token' : 'Secret'), run }
}

const success = JSON.stringify(
  (examples as { name: string; examples: Record<string, unknown>[] }[])
    .find((each) => each.name === 'deployment_status')
    ?.examples.find((each) => (each.deployment_status as { state: string }).state === 'success'),
)

/** A GitHub ping signed with `secret` until the API answers `status`: its replicas re-read an integration within seconds. */
async function pingUntil(hook: { url: string; secret: string }, status: number) {
  const since = Date.now()
  let answer = 0
  while (answer !== status && Date.now() - since < 5_000) {
    if (answer !== 0) await Bun.sleep(50)
    answer = (await deliverGitHub(h, hook, 'ping', '{"zen":"Keep it logically awesome."}')).status
  }
  return answer
}

test('create prints the URL, the secret once, the events and the content type; the API lists it and takes a delivery signed with it', async () => {
  const hook = await created(
    ['--source', 'github', '--name', 'cli shop', '--mapping', '{"app": "web"}'],
    { PUBLIC_URL: 'https://shiplog.example.com/' },
  )
  expect(hook.url).toBe(`https://shiplog.example.com/hooks/${hook.id}`)
  expect(hook.secret).toMatch(/^shiplog_whsec_[A-Za-z0-9_-]{43}$/)
  expect(hook.run.stdout).toContain('Settings → Webhooks → Add webhook')
  expect(hook.run.stdout).toMatch(/^ {2}Content type +application\/json$/m)
  expect(hook.run.stdout).toMatch(
    /^ {2}Events +Deployment statuses \(deployment_status\), Pushes \(push\)$/m,
  )
  expect(hook.run.stdout).toContain('shown this once')
  expect(hook.run.stdout).toMatch(/^ {2}app +deployment\.payload\.app, "web", repository\.name$/m)

  const key = await adminKey(h)
  const listed = (await (await h.get('/v1/integrations', { key })).json()) as {
    data: Integration[]
  }
  expect(listed.data.find((each) => each.id === hook.id)).toMatchObject({
    source: 'github',
    name: 'cli shop',
    mapping: { app: 'web' },
  })
  const [audit] = await h.sql`
    select actor_person_id, actor_key_id from audit_events
     where target_id = ${hook.id} and action = 'integration.created'`
  expect(audit).toEqual({ actor_person_id: null, actor_key_id: null })

  expect((await deliverGitHub(h, hook, 'deployment_status', success)).status).toBe(202)
  await h.settle()
  const deliveries = await integrations(['deliveries', '--workspace', 'acme', hook.id])
  expect(deliveries.code).toBe(0)
  const [header, row] = deliveries.stdout.trim().split('\n')
  expect(header).toMatch(/^RECEIVED AT\s+EVENT\s+SENDER DELIVERY ID\s+OUTCOME\s+REASON OR LINK$/)
  expect(row).toMatch(
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+deployment_status\s+[0-9a-f-]{36}\s+recorded\s+\/v1\/deployments\/[0-9a-f-]{36}$/,
  )
})

test('rotate shows a new secret once; the previous one is accepted until the time it names', async () => {
  const hook = await created(['--source', 'github', '--name', 'rotated'])
  expect(await pingUntil(hook, 200)).toBe(200)
  const rotated = await integrations(['rotate', '--workspace', 'acme', hook.id])
  expect(rotated.code).toBe(0)
  const fresh = printed(rotated.stdout)
  expect(fresh.url).toBe(hook.url)
  expect(fresh.secret).not.toBe(hook.secret)
  const until = rotated.stdout.match(/accepted until (\S+Z):/)?.[1] as string
  expect(Date.parse(until) - Date.now()).toBeGreaterThan(3_500_000)
  expect(await pingUntil(fresh, 200)).toBe(200)
  expect((await deliverGitHub(h, hook, 'ping', '{}')).status).toBe(200)
  expect((await deliverGitHub(h, { ...hook, secret: 'not-it' }, 'ping', '{}')).status).toBe(401)
  const listed = await integrations(['list', '--workspace', 'acme'])
  expect(listed.stdout).toMatch(new RegExp(`^${hook.id} +github +rotated .* ${until}$`, 'm'))

  // Without a grace period the previous secret stops at once.
  const abrupt = await integrations(['rotate', '--workspace', 'acme', hook.id], {
    INTEGRATION_SECRET_GRACE_SECONDS: '0',
  })
  expect(abrupt.stdout).toContain('The previous one is no longer accepted')
  expect(await pingUntil(printed(abrupt.stdout), 200)).toBe(200)
  expect((await deliverGitHub(h, fresh, 'ping', '{}')).status).toBe(401)
})

test('delete removes it: the API no longer lists it and its URL answers 404', async () => {
  const hook = await created(['--source', 'github', '--name', 'doomed'])
  const deleted = await integrations(['delete', '--workspace', 'acme', hook.id])
  expect(deleted.code).toBe(0)
  expect(deleted.stdout).toContain(`Deleted "doomed" (id ${hook.id}) of workspace "acme"`)
  const key = await adminKey(h)
  expect((await h.get(`/v1/integrations/${hook.id}`, { key })).status).toBe(404)
  expect(await pingUntil(hook, 404)).toBe(404)
  const [audit] = await h.sql`
    select actor_key_id from audit_events
     where target_id = ${hook.id} and action = 'integration.deleted'`
  expect(audit).toEqual({ actor_key_id: null })

  const again = await integrations(['delete', '--workspace', 'acme', hook.id])
  expect(again.code).toBe(1)
  expect(again.stderr).toContain(
    `no integration ${hook.id} in workspace "acme"; bun run integrations list --workspace acme shows them`,
  )
})

test('deliveries lists each one, newest first, with its reason; an empty list says what to do', async () => {
  const hook = await created(['--source', 'github', '--name', 'listed'])
  const empty = await integrations(['deliveries', '--workspace', 'acme', hook.id])
  expect(empty.stdout).toContain('No deliveries yet')
  expect((await deliverGitHub(h, hook, 'ping', '{}', { delivery: 'first' })).status).toBe(200)
  const forged = await deliverGitHub(h, { ...hook, secret: 'forged' }, 'push', '{}', {
    delivery: 'second\u001b[2J',
  })
  expect(forged.status).toBe(401)
  await h.settle()
  const listed = await integrations(['deliveries', '--workspace', 'acme', hook.id])
  const [, newest, oldest] = listed.stdout.trim().split('\n')
  expect(newest).toMatch(/ push +second<U\+001B>\[2J +refused +.*bad signature/)
  expect(oldest).toMatch(/ ping +first +ignored +a ping/)
})

test('a bad mapping, source or name exits 2 naming the field, with the API’s words; nothing is stored', async () => {
  const refused: [string[], string][] = [
    [
      ['--source', 'github', '--name', 'x', '--mapping', '{"env": "prod"}'],
      '--mapping: mapping.env is not a field a mapping gives: app, environment, repository or version',
    ],
    [
      ['--source', 'github', '--name', 'x', '--mapping', '{"app": {"from": ""}}'],
      '--mapping: mapping.app must be a string, {"from": "<dot path>"}',
    ],
    [['--source', 'github', '--name', 'x', '--mapping', '{app'], '--mapping must be JSON'],
    [['--source', 'bitbucket', '--name', 'x'], '--source must be one of github, gitlab'],
    [['--source', 'gitlab'], '--name is required'],
    [['--source', 'gitlab', '--name', 'tab\there'], '--name '],
  ]
  for (const [args, message] of refused) {
    const run = await integrations(['create', '--workspace', 'acme', ...args])
    expect({ args, code: run.code, stderr: run.stderr }).toEqual({
      args,
      code: 2,
      stderr: expect.stringContaining(message),
    })
  }
  const [none] = await h.sql`select count(*)::int as count from integrations where name = 'x'`
  expect(none?.count).toBe(0)
})

test('an unknown workspace or id exits 1; a malformed id or a stray flag exits 2', async () => {
  const nowhere = await integrations(['list', '--workspace', 'nowhere'])
  expect(nowhere.code).toBe(1)
  expect(nowhere.stderr).toContain('no workspace "nowhere"')
  const unknown = await integrations([
    'deliveries',
    '--workspace',
    'acme',
    '0190f3c4-5b2e-7c1d-9e8f-a1b2c3d4e5f6',
  ])
  expect(unknown.code).toBe(1)
  expect(unknown.stderr).toContain('no integration 0190f3c4-5b2e-7c1d-9e8f-a1b2c3d4e5f6')
  for (const args of [
    ['rotate', '--workspace', 'acme', 'not-an-id'],
    ['rotate', '--workspace', 'acme'],
    ['delete', '--workspace', 'acme', '--name', 'x', '0190f3c4-5b2e-7c1d-9e8f-a1b2c3d4e5f6'],
    ['list'],
    ['connect', '--workspace', 'acme'],
  ]) {
    const run = await integrations(args)
    expect({ args, code: run.code }).toEqual({ args, code: 2 })
    expect(run.stderr).toContain('Usage:')
  }
})

test('the URL is under PUBLIC_URL, else --url-base, else http://localhost:$PORT', async () => {
  const local = await created(['--source', 'gitlab', '--name', 'local'], { PORT: '4321' })
  expect(local.url).toBe(`http://localhost:4321/hooks/${local.id}`)
  const based = await created([
    '--source',
    'gitlab',
    '--name',
    'based',
    '--url-base',
    'https://hooks.example.com',
  ])
  expect(based.url).toBe(`https://hooks.example.com/hooks/${based.id}`)
  const listed = await integrations(['list', '--workspace', 'acme'])
  expect(listed.stdout).toContain(`http://localhost:3000/hooks/${based.id}`)
  const both = await integrations(['list', '--workspace', 'acme', '--url-base', 'https://a.b'], {
    PUBLIC_URL: 'https://shiplog.example.com',
  })
  expect(both.code).toBe(2)
  expect(both.stderr).toContain('--url-base is for a server without PUBLIC_URL')
  const bad = await integrations(['list', '--workspace', 'acme', '--url-base', 'hooks.example.com'])
  expect(bad.code).toBe(2)
  expect(bad.stderr).toContain('--url-base must be the scheme and host')
})

test('GitLab needs no sealing key: its token works at once; GitHub without the key exits 1 saying so', async () => {
  const hook = await created(['--source', 'gitlab', '--name', 'lab'], {
    INTEGRATION_SEALING_KEY: '',
  })
  expect(hook.run.stdout).toMatch(/^ {2}Secret token +shiplog_whsec_/m)
  expect(hook.run.stdout).toMatch(
    /^ {2}Trigger +Deployment events \(Deployment Hook\), Push events \(Push Hook\)$/m,
  )
  expect(hook.run.stdout).toMatch(/^ {2}Content type +nothing to choose/m)
  expect((await deliverGitLab(h, hook, 'Push Hook', '{}')).status).toBe(202)
  expect((await deliverGitLab(h, hook, 'Push Hook', '{}', { token: 'wrong' })).status).toBe(401)

  const sealed = await integrations(
    ['create', '--workspace', 'acme', '--source', 'github', '--name', 'unsealed'],
    { INTEGRATION_SEALING_KEY: '' },
  )
  expect(sealed.code).toBe(1)
  expect(sealed.stderr).toContain('INTEGRATION_SEALING_KEY is not set')
})

test('--help prints the usage whatever the configuration', async () => {
  const run = await runCli(['integrations', 'create', '--help'], { DATABASE_URL: 'not a url' })
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
  expect(run.stdout).toStartWith('Usage:\n')
  expect(run.stdout).toContain('http://localhost:$PORT')
})
