import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type FailingOver,
  failingOver,
  repeated,
} from '../../../packages/client/test/failing-over.ts'
import { inputVariable } from '../src/inputs.ts'

// The committed bundle, run as the runner runs it (`node dist/index.js`, inputs as INPUT_*),
// against a real local server going through an outage: each retry is a notice on the run, and
// giving up is the step's error annotation, saying for how long it tried.

const BUNDLE = join(import.meta.dir, '../dist/index.js')

let workspace: string
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'shiplog-action-failover-'))
})
afterAll(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true })
})

/** The stand-in of the running test, stopped after it. */
let shiplog: FailingOver | undefined
afterEach(async () => {
  await shiplog?.stop()
  shiplog = undefined
})

async function runAction(url: string, inputs: Record<string, string> = {}) {
  const outputFile = join(workspace, 'output')
  await writeFile(outputFile, '')
  const given = {
    url,
    'api-key': 'shiplog_test',
    app: 'storefront',
    environment: 'production',
    version: 'v5.0.0',
    ...inputs,
  }
  const child = Bun.spawn(['node', BUNDLE], {
    cwd: workspace,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_ACTIONS: 'true',
      GITHUB_SHA: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
      GITHUB_REPOSITORY: 'acme/storefront',
      GITHUB_ACTOR: 'octocat',
      GITHUB_RUN_ID: '9001',
      GITHUB_JOB: 'deploy',
      ...Object.fromEntries(
        Object.entries(given).map(([name, value]) => [inputVariable(name), value]),
      ),
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited])
  const commands = (name: string) =>
    [...stdout.matchAll(new RegExp(`^::${name}::(.*)$`, 'gm'))].map(([, data = '']) =>
      data.replaceAll('%0A', '\n').replaceAll('%25', '%'),
    )
  return {
    code,
    stdout,
    notices: commands('notice'),
    errors: commands('error'),
    outputs: await readFile(outputFile, 'utf8'),
  }
}

test.skipIf(!Bun.which('node'))(
  'each retry is a notice on the run; the deployment is accepted once and its id is output',
  async () => {
    shiplog = await failingOver([{ answer: 503, retryAfter: '0' }, { answer: 'drop' }])
    const run = await runAction(shiplog.url, { 'retry-for': '30' })
    expect(run.code).toBe(0)
    expect(run.notices).toEqual([
      expect.stringMatching(
        /^Shiplog answered 503 Service Unavailable; retrying in 0\.[2-5] s \(attempt 2, giving up after 30 s\)$/,
      ),
      expect.stringMatching(
        /^Could not reach Shiplog \(other side closed\); retrying in (0\.[5-9]|1) s \(attempt 3, giving up after 30 s\)$/,
      ),
    ])
    const posts = shiplog.received.filter((request) => request.method === 'POST')
    expect(posts).toHaveLength(3)
    expect(new Set(posts.map((request) => request.idempotencyKey)).size).toBe(1)
    const [id] = [...shiplog.ids.values()]
    expect(run.outputs).toStartWith(`deployment-id=${id}\n`)
  },
)

test.skipIf(!Bun.which('node'))(
  'retry-for: 1 gives up after a second: the error annotation says for how long',
  async () => {
    shiplog = await failingOver(repeated({ answer: 503, retryAfter: '1' }))
    const run = await runAction(shiplog.url, { 'retry-for': '1' })
    expect(run.code).toBe(1)
    // Retry-After asks for 1 s; what the first attempt took is cut from it, to end on time.
    expect(run.notices).toEqual([
      expect.stringMatching(
        /^Shiplog answered 503 Service Unavailable; retrying in (0\.\d|1) s \(attempt 2, giving up after 1 s\)$/,
      ),
    ])
    expect(run.errors).toEqual([
      expect.stringMatching(
        /^error: 503 Service Unavailable: Nothing was accepted: retry after Retry-After\.\n {2}gave up after 2 attempts over 1(\.\d)? s; --retry-for \(or SHIPLOG_RETRY_FOR\) sets how long$/,
      ),
    ])
  },
)
