import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createShiplogClient } from '../../../packages/client/src/index.ts'
import { type LiveApi, ROOT, startLiveApi } from '../../../packages/client/test/live-api.ts'
import { nodeOnlyPath } from '../../../packages/client/test/node-only-path.ts'
import { ACTION, BUNDLE, runAction as runBundle } from './runner.ts'

// The committed bundle run the way the runner runs it: `node dist/index.js` with the inputs as
// INPUT_* variables, the GITHUB_* context, outputs appended to the file in GITHUB_OUTPUT, and no
// Bun on PATH, against a real Shiplog.

const SHA = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_SHA: SHA,
  GITHUB_REPOSITORY: 'acme/storefront',
  GITHUB_ACTOR: 'octocat',
}

let live: LiveApi
let key: string
let path: Awaited<ReturnType<typeof nodeOnlyPath>>
let workspace: string

beforeAll(async () => {
  live = await startLiveApi()
  key = await live.createKey()
  path = await nodeOnlyPath()
  workspace = await mkdtemp(join(tmpdir(), 'shiplog-action-'))
}, 60_000)

afterAll(async () => {
  await live?.close()
  await path?.remove()
  if (workspace) await rm(workspace, { recursive: true, force: true })
})

async function runAction(inputs: Record<string, string>) {
  const run = await runBundle(inputs, GITHUB, { cwd: workspace, path: path.path })
  return { ...run, annotations: (run.commands.error ?? []).map((data) => `::error::${data}`) }
}

test('the committed dist/index.js is what `bun run build:action` makes of the source', async () => {
  const { scripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'))
  const target = '--outfile=actions/notify/dist/index.js'
  const command: string = scripts['build:action']
  expect(command).toContain(target)
  const rebuilt = join(workspace, 'rebuilt.js')
  const build = Bun.spawnSync(['sh', '-c', command.replace(target, `--outfile=${rebuilt}`)], {
    cwd: ROOT,
    stdout: 'ignore',
    stderr: 'pipe',
  })
  expect(build.stderr.toString()).toBe('')
  if ((await readFile(rebuilt, 'utf8')) !== (await readFile(BUNDLE, 'utf8'))) {
    throw new Error(
      'actions/notify/dist/index.js is stale: run `bun run build:action` and commit the result',
    )
  }
})

test('action.yml runs the bundle on node24 and declares the inputs and outputs it uses', async () => {
  const action = Bun.YAML.parse(await readFile(join(ACTION, 'action.yml'), 'utf8')) as {
    runs: { using: string; main: string }
    inputs: Record<string, { required: boolean }>
    outputs: Record<string, unknown>
  }
  expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
  const required = Object.entries(action.inputs).filter(([, input]) => input.required)
  expect(required.map(([name]) => name)).toEqual([
    'url',
    'api-key',
    'app',
    'environment',
    'version',
  ])
  expect(Object.keys(action.inputs)).toEqual([
    ...required.map(([name]) => name),
    'wait',
    'monorepo-path',
    'description',
    'require-commits',
    'idempotency-key',
    'retry-for',
  ])
  expect(Object.keys(action.outputs)).toEqual(['deployment-id', 'receipt-url'])
})

test('inputs in, recorded with the GITHUB_* context, id and receipt URL out', async () => {
  const run = await runAction({
    url: live.url,
    'api-key': key,
    app: 'storefront',
    environment: 'production',
    version: 'v5.0.0',
    wait: 'true',
    'monorepo-path': 'apps/storefront',
    description: 'from the action',
  })
  expect({ code: run.code, stderr: run.stderr, annotations: run.annotations }).toEqual({
    code: 0,
    stderr: '',
    annotations: [],
  })
  const { outputs } = run
  expect(Object.keys(outputs)).toEqual(['deployment-id', 'receipt-url'])
  expect(outputs['receipt-url']).toBe(`${live.url}/v1/deployments/${outputs['deployment-id']}`)
  expect(run.stdout).toContain('Recorded at ')
  expect(run.stdout + run.written).not.toContain(key)

  const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
  const recorded = await client.getDeployment(outputs['deployment-id'] ?? '')
  expect(recorded).toMatchObject({
    status: 'recorded',
    app: 'storefront',
    environment: 'production',
    version: 'v5.0.0',
    commitHash: SHA,
    repositoryFullName: 'acme/storefront',
    author: 'octocat',
    monorepoPath: 'apps/storefront',
    description: 'from the action',
  })
}, 40_000)

test('a request the API refuses fails the step with one annotation naming each field', async () => {
  const run = await runAction({
    url: live.url,
    'api-key': key,
    app: 'storefront',
    environment: 'production',
    version: 'v5.0.1',
    'monorepo-path': '/apps/storefront',
  })
  expect(run.code).toBe(2)
  expect(run.written).toBe('')
  expect(run.annotations).toHaveLength(1)
  expect(run.annotations[0]?.split('\n')).toEqual([
    '::error::error: 422 Validation failed: The request has 1 invalid field: fix every one listed in errors and send it again.',
    "  monorepoPath (--monorepo-path): must be a relative path: remove the leading '/'",
  ])
})

test('missing inputs are named as inputs, before anything is sent', async () => {
  const run = await runAction({ url: live.url, 'api-key': key, app: 'storefront' })
  expect(run.code).toBe(2)
  expect(run.stdout).toBe('::error::missing inputs environment, version: set them under `with:`\n')
})

/** The ```yaml blocks of docs/pipelines.md that use this action. */
async function readmeSteps(): Promise<{ uses: string; with: Record<string, unknown> }[]> {
  const readme = await readFile(join(ROOT, 'docs/pipelines.md'), 'utf8')
  const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '')
  return blocks
    .filter((block) => block.includes('/actions/notify@'))
    .flatMap((block) => {
      const parsed = Bun.YAML.parse(block) as unknown
      const steps = Array.isArray(parsed) ? parsed : [parsed]
      return steps.filter((step) => typeof step?.uses === 'string')
    })
}

test("docs/pipelines.md's workflow step runs as written", async () => {
  const steps = await readmeSteps()
  expect(steps).toHaveLength(1)
  const [step] = steps
  expect(step?.uses).toMatch(/^[\w-]+\/shiplog\/actions\/notify@v1$/)
  const expressions: Record<string, string> = {
    'secrets.SHIPLOG_URL': live.url,
    'secrets.SHIPLOG_API_KEY': key,
    'github.ref_name': 'v6.0.0',
  }
  const inputs = Object.fromEntries(
    Object.entries(step?.with ?? {}).map(([name, value]) => [
      name,
      String(value).replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, expression: string) => {
        const replaced = expressions[expression]
        if (replaced === undefined)
          throw new Error(`no value for \${{ ${expression} }} in this test`)
        return replaced
      }),
    ]),
  )
  const run = await runAction(inputs)
  expect({ code: run.code, stderr: run.stderr, annotations: run.annotations }).toEqual({
    code: 0,
    stderr: '',
    annotations: [],
  })
  expect(run.stdout).toMatch(/^Deployment \S+ accepted: \S+ v6\.0\.0 to \S+\n/)
}, 40_000)
