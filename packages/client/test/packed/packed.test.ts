import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { createShiplogClient } from '../../src/index.ts'
import { type LiveApi, ROOT, startLiveApi } from '../live-api.ts'
import { PACKAGES, type Packed, packedProject, run, runInProject } from './scratch-project.ts'

// Both packages as a team outside this repository gets them: packed by `bun pm pack`, installed by
// npm into a plain Node project, used under `node` with no Bun on PATH (and under Deno).

let live: LiveApi
let key: string
let project: Packed

beforeAll(async () => {
  ;[live, project] = await Promise.all([startLiveApi(), packedProject()])
  key = await live.createKey()
}, 90_000)

afterAll(async () => {
  await live?.close()
})

const inProject = (command: string[], env: Record<string, string> = {}) =>
  runInProject(project, command, env)

const tarballFiles = async (tarball: string) =>
  (await run(['tar', '-tzf', tarball], { cwd: project.dir })).trim().split('\n')

const packedManifest = async (tarball: string) =>
  JSON.parse(await run(['tar', '-xzOf', tarball, 'package/package.json'], { cwd: project.dir }))

test('the tarballs hold the built dist/ and a manifest npm can install, nothing else', async () => {
  for (const name of PACKAGES) {
    const files = await tarballFiles(project.tarballs[name])
    expect(files).toContain('package/dist/index.js')
    expect(files).toContain('package/dist/index.d.ts')
    const stray = files.filter(
      (file) => !/^package\/(package\.json|dist\/[\w-]+\.(js|d\.ts))$/.test(file),
    )
    expect(stray).toEqual([])
    expect(files.filter((file) => file.includes('.test.'))).toEqual([])
    expect(files.filter((file) => /\/(env|testing)\b/.test(file))).toEqual([])

    const manifest = await packedManifest(project.tarballs[name])
    expect(manifest.exports['.']).toEqual({
      types: './dist/index.d.ts',
      import: './dist/index.js',
      default: './dist/index.js',
    })
    expect(JSON.stringify(manifest)).not.toContain('workspace:')
    expect(manifest.devDependencies).toBeUndefined()
    expect(manifest.scripts).toBeUndefined()
  }
  const client = await packedManifest(project.tarballs.client)
  expect(client.dependencies['@shiplog/schema']).toBe('0.1.0')
  expect(client.bin).toEqual({ shiplog: './dist/cli.js' })
  // The schema's index and a subpath per module of the contract, nothing else: configuration
  // parsing and the queue's payload are not its own, and neither are its helpers.
  const schema = await packedManifest(project.tarballs.schema)
  const subpaths = Object.keys(schema.exports)
  expect(subpaths).toContain('./deployment')
  expect(subpaths).toContain('./audit')
  expect(
    subpaths.filter((path) => /^\.\/(env|deployment-job|suggest|page|testing)$/.test(path)),
  ).toEqual([])
  expect(schema.exports['./problem']).toEqual({
    types: './dist/problem.d.ts',
    import: './dist/problem.js',
    default: './dist/problem.js',
  })
})

test('packing leaves the repository manifests as they were (they point at src/)', async () => {
  for (const name of PACKAGES) {
    const dir = join(ROOT, 'packages', name)
    expect(await readFile(join(dir, 'package.json'), 'utf8')).toBe(
      project.manifestsBefore[name] ?? '',
    )
    expect(await stat(join(dir, 'package.json.workspace')).catch(() => null)).toBeNull()
  }
})

test('the PATH these tests give has Node 20 or later and no Bun', async () => {
  const which = await inProject(['sh', '-c', 'command -v bun'])
  expect(which.code).not.toBe(0)
  const node = await inProject(['node', '-p', 'typeof Bun + " " + process.versions.node'])
  const [bun, version = ''] = node.stdout.trim().split(' ')
  expect(bun).toBe('undefined')
  expect(Number(version.split('.')[0])).toBeGreaterThanOrEqual(20)
})

const VALIDATE = `
import { DeploymentInput, validateDeployment } from '@shiplog/schema'
import { Problem } from '@shiplog/schema/problem'
import { Value } from '@sinclair/typebox/value'
import { createShiplogClient, ShiplogError } from '@shiplog/client'

const body = {
  repositoryFullName: 'acme/shop',
  environment: 'production',
  app: 'checkout',
  version: '1.4.2',
  commitHash: '9FCEB02D0AE598E95DC970B74767F19372D61AF8',
}
const now = new Date()
console.log(JSON.stringify({
  valid: validateDeployment(body, now),
  invalid: validateDeployment({ ...body, commitHash: 'HEAD', colour: 'red' }, now),
  schemaAccepts: Value.Check(DeploymentInput, body),
  problemHasStatus: 'status' in Problem.properties,
  client: typeof createShiplogClient({ baseUrl: 'https://shiplog.example.com', apiKey: 'k' }).createDeployment,
  error: new ShiplogError({ type: 'about:blank', title: 'Nope', status: 418, detail: 'Teapot.' }).message,
}))
`

test('node imports both packages, validates with the schema and builds a client', async () => {
  await writeFile(join(project.dir, 'validate.mjs'), VALIDATE)
  const result = await inProject(['node', 'validate.mjs'])
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
  const printed = JSON.parse(result.stdout)
  expect(printed.valid).toMatchObject({
    ok: true,
    value: { app: 'checkout', commitHash: '9fceb02d0ae598e95dc970b74767f19372d61af8' },
  })
  expect(printed.invalid.ok).toBe(false)
  expect(printed.invalid.errors.map((error: { field: string }) => error.field)).toEqual([
    'commitHash',
    'colour',
  ])
  expect(printed).toMatchObject({
    schemaAccepts: true,
    problemHasStatus: true,
    client: 'function',
    error: '418 Nope: Teapot.',
  })
})

test("docs/packages.md's schema example, run with node, prints what it says", async () => {
  const readme = await readFile(join(ROOT, 'docs', 'packages.md'), 'utf8')
  const example = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].find((block) =>
    block[1]?.includes("from '@shiplog/schema'"),
  )
  const printed = /```text\n([\s\S]*?)```/.exec(readme.slice(example?.index ?? readme.length))
  expect(example?.[1]).toBeDefined()
  await writeFile(join(project.dir, 'check.mjs'), example?.[1] ?? '')
  const result = await inProject(['node', 'check.mjs'])
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
  expect(result.stdout).toBe(printed?.[1] ?? '(no ```text block after the example)')
})

const CONSUMER = `
import type { Static } from '@sinclair/typebox'
import { DeploymentInput, validateDeployment, type ValidationResult } from '@shiplog/schema'
import type { FieldError } from '@shiplog/schema/problem'
import {
  type CreatedDeployment,
  createShiplogClient,
  type DeploymentStatus,
  ShiplogError,
} from '@shiplog/client'

const input: Static<typeof DeploymentInput> = {
  repositoryFullName: 'acme/shop',
  environment: 'production',
  app: 'checkout',
  version: '1.4.2',
  commitHash: '9fceb02d0ae598e95dc970b74767f19372d61af8',
}
const result: ValidationResult = validateDeployment(input, new Date())
export const fields: string[] = result.ok ? [] : result.errors.map((error: FieldError) => error.field)

const shiplog = createShiplogClient({ baseUrl: 'https://shiplog.example.com', apiKey: 'k' })
export async function record(): Promise<DeploymentStatus | FieldError[]> {
  try {
    const created: CreatedDeployment = await shiplog.createDeployment(input)
    return await shiplog.waitUntilRecorded(created.id, { timeoutMs: 60_000 })
  } catch (error) {
    if (error instanceof ShiplogError) return error.fieldErrors
    throw error
  }
}
`

test('tsc --strict with module NodeNext (and exactOptionalPropertyTypes) accepts the types, without skipLibCheck', async () => {
  await writeFile(join(project.dir, 'consumer.ts'), CONSUMER)
  const compilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    skipLibCheck: false,
    noEmit: true,
    types: ['node'],
  }
  await writeFile(
    join(project.dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions, files: ['consumer.ts'] }),
  )
  const tsc = await inProject(['node', join(ROOT, 'node_modules/typescript/lib/tsc.js'), '-p', '.'])
  expect({ code: tsc.code, output: tsc.stdout + tsc.stderr }).toEqual({ code: 0, output: '' })
}, 60_000)

test('npx shiplog runs under node: --help, then notify against a real Shiplog', async () => {
  const bin = await readFile(join(project.dir, 'node_modules/.bin/shiplog'), 'utf8')
  expect(bin.split('\n')[0]).toBe('#!/usr/bin/env node')

  const help = await inProject(['npx', 'shiplog', '--help'])
  expect({ code: help.code, stderr: help.stderr }).toEqual({ code: 0, stderr: '' })
  expect(help.stdout).toStartWith('Usage: shiplog notify --app <name>')

  const sha = 'c3499c2729730a7f807efb8676a92dcb6f8a3f8f'
  const notify = await inProject(
    // Not in a checkout, nor with git: the commits are tested from the served CLI.
    ['npx', 'shiplog', 'notify', '--app', 'packed', '--environment', 'production'].concat([
      '--version',
      'v1.0.0',
      '--wait',
      '--no-commits',
    ]),
    {
      SHIPLOG_URL: live.url,
      SHIPLOG_API_KEY: key,
      GITHUB_ACTIONS: 'true',
      GITHUB_SHA: sha,
      GITHUB_REPOSITORY: 'acme/packed',
      GITHUB_ACTOR: 'octocat',
    },
  )
  expect({ code: notify.code, stderr: notify.stderr }).toEqual({ code: 0, stderr: '' })
  const id = /^Deployment (\S+) accepted: packed v1\.0\.0 to production$/m.exec(notify.stdout)?.[1]
  const recorded = await createShiplogClient({ baseUrl: live.url, apiKey: key }).getDeployment(
    id ?? '',
  )
  expect(recorded).toMatchObject({
    status: 'recorded',
    commitHash: sha,
    repositoryFullName: 'acme/packed',
    author: 'octocat',
  })

  const wrong = await inProject(['npx', 'shiplog', 'notify', '--app', 'packed'])
  expect(wrong.code).toBe(2)
  expect(wrong.stderr).toStartWith('error: missing --url (or SHIPLOG_URL)')
}, 60_000)

/** The Deno binary of the root devDependency, if installed. */
function denoBinary(): string | undefined {
  try {
    return createRequire(`${ROOT}package.json`)('deno/install_api.cjs').runInstall()
  } catch {
    return undefined
  }
}

const deno = denoBinary()

test.skipIf(!deno)('Deno imports the built entry from node_modules', async () => {
  await writeFile(join(project.dir, 'validate.mjs'), VALIDATE)
  const result = await inProject([
    deno as string,
    'run',
    '--allow-read',
    '--allow-env',
    'validate.mjs',
  ])
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
  expect(JSON.parse(result.stdout)).toMatchObject({
    schemaAccepts: true,
    error: '418 Nope: Teapot.',
  })
})
