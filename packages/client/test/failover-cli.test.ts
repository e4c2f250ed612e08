import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLI_BUNDLE } from '../../../scripts/build-cli.ts'
import { type FailingOver, failingOver, repeated } from './failing-over.ts'

// The CLI bundle a pipeline downloads, run by Node as a pipeline runs it, through an outage of a
// real local server: the retries it prints, and how it gives up. These waits are real, so the
// outages are the shortest that show the behaviour (a 503 without Retry-After costs 0.25–0.5 s).

const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8'
const ROOT = join(import.meta.dir, '../../..')

let dir: string
let cli: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shiplog-failover-'))
  // Written by `bun run build` and by every `bun test` run (scripts/test-preload.ts).
  cli = await readFile(CLI_BUNDLE, 'utf8')
})
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** The stand-in of the running test, stopped after it. */
let shiplog: FailingOver | undefined
afterEach(async () => {
  await shiplog?.stop()
  shiplog = undefined
})

/**
 * Runs `command` with only `env` (and PATH), collecting its output; `onStderr` sees what it has
 * printed to stderr so far, as it comes.
 */
async function run(
  command: string[],
  env: Record<string, string>,
  onStderr: (text: string) => unknown = () => undefined,
) {
  const child = Bun.spawn(command, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, TMPDIR: dir, NO_COLOR: '1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let stderr = ''
  const reading = (async () => {
    const decoder = new TextDecoder()
    const reader = child.stderr.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      stderr += decoder.decode(value, { stream: true })
      await onStderr(stderr)
    }
  })()
  const stdout = await new Response(child.stdout).text()
  const code = await child.exited
  await reading
  return { code, stdout, stderr, lines: stderr.split('\n').filter(Boolean) }
}

const notify = (url: string, flags: string[], env: Record<string, string> = {}) =>
  run(
    [
      'node',
      CLI_BUNDLE,
      'notify',
      '--app=checkout',
      '--environment=production',
      '--version=v1',
      `--commit=${SHA}`,
      '--repository=acme/shop',
      '--author=ada',
      '--no-commits',
      ...flags,
    ],
    { SHIPLOG_URL: url, SHIPLOG_API_KEY: 'shiplog_test', ...env },
  )

test.skipIf(!Bun.which('node'))(
  'notify rides out a 503 and a cut connection, one line each on stderr, then is accepted once',
  async () => {
    shiplog = await failingOver([{ answer: 503 }, { answer: 'drop' }])
    const result = await notify(shiplog.url, ['--retry-for', '30'])
    expect({ code: result.code, lines: result.lines }).toEqual({
      code: 0,
      lines: [
        expect.stringMatching(
          /^Shiplog answered 503 Service Unavailable; retrying in 0\.[2-5] s \(attempt 2, giving up after 30 s\)$/,
        ),
        // Node's fetch on a connection closed before any answer.
        expect.stringMatching(
          /^Could not reach Shiplog \(other side closed\); retrying in (0\.[5-9]|1) s \(attempt 3, giving up after 30 s\)$/,
        ),
      ],
    })
    const keys = shiplog.received.map((request) => request.idempotencyKey)
    expect(keys).toHaveLength(3)
    expect(new Set(keys).size).toBe(1)
    const [id] = [...shiplog.ids.values()]
    expect(result.stdout).toStartWith(`Deployment ${id} accepted: checkout v1 to production\n`)
  },
)

test.skipIf(!Bun.which('node'))(
  'with SHIPLOG_RETRY_FOR=1 it gives up after a second, exit 1, saying how long it tried',
  async () => {
    shiplog = await failingOver(repeated({ answer: 503, retryAfter: '1' }))
    const result = await notify(shiplog.url, [], { SHIPLOG_RETRY_FOR: '1' })
    expect({ code: result.code, lines: result.lines }).toEqual({
      code: 1,
      lines: [
        // Retry-After asks for 1 s; what the first attempt took is cut from it, to end on time.
        expect.stringMatching(
          /^Shiplog answered 503 Service Unavailable; retrying in (0\.\d|1) s \(attempt 2, giving up after 1 s\)$/,
        ),
        'error: 503 Service Unavailable: Nothing was accepted: retry after Retry-After.',
        expect.stringMatching(
          /^ {2}gave up after 2 attempts over 1(\.\d)? s; --retry-for \(or SHIPLOG_RETRY_FOR\) sets how long$/,
        ),
      ],
    })
    expect(new Set(shiplog.received.map((request) => request.idempotencyKey)).size).toBe(1)
  },
)

interface GitlabJob {
  variables?: Record<string, string>
  script?: string[]
}

test.skipIf(!Bun.which('node') || !Bun.which('curl'))(
  'the GitLab template downloads the CLI through refused connections, then reports through a 503',
  async () => {
    const template = Bun.YAML.parse(
      await readFile(join(ROOT, 'ci-templates/gitlab/shiplog.yml'), 'utf8'),
    ) as Record<string, GitlabJob>
    const job = template['.shiplog-notify'] ?? {}
    const down = await failingOver([{ answer: 503 }], { refusing: true, cli })
    shiplog = down
    const predefined: Record<string, string> = {
      GITLAB_CI: 'true',
      CI: 'true',
      CI_PROJECT_PATH: 'acme/gitlab-shop',
      CI_PROJECT_NAME: 'gitlab-shop',
      CI_ENVIRONMENT_NAME: 'production',
      CI_COMMIT_SHA: SHA,
      CI_COMMIT_TAG: 'v1',
      CI_PIPELINE_ID: '700',
      CI_JOB_ID: '70001',
      CI_JOB_NAME: 'record-deployment',
      GITLAB_USER_LOGIN: 'ada',
    }
    // GitLab expands $NAME in variables before the script runs.
    const variables = Object.fromEntries(
      Object.entries(job.variables ?? {}).map(([name, value]) => [
        name,
        String(value).replace(/\$\{?(\w+)\}?/g, (_, used: string) => predefined[used] ?? ''),
      ]),
    )
    const result = await run(
      ['sh', '-e', '-c', (job.script ?? []).join('\n')],
      {
        ...predefined,
        ...variables,
        // This stand-in serves no receipts to wait for.
        SHIPLOG_NOTIFY_FLAGS: '--no-commits',
        SHIPLOG_URL: `${down.url}/`,
        SHIPLOG_API_KEY: 'shiplog_test',
      },
      // Shiplog comes back once curl has been refused and said it will retry.
      (stderr) => stderr.includes('Will retry') && down.start(),
    )
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/connection refused\. Will retry in 2 seconds/)
    expect(result.lines).toContainEqual(
      expect.stringMatching(
        /^Shiplog answered 503 Service Unavailable; retrying in 0\.[2-5] s \(attempt 2, giving up after 120 s\)$/,
      ),
    )
    const [id] = [...down.ids.values()]
    expect(result.stdout).toContain(`Deployment ${id} accepted: gitlab-shop v1 to production`)
    expect(new Set(down.received.map((request) => request.idempotencyKey)).size).toBe(1)
  },
  20_000,
)
