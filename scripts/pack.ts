// Builds a workspace package for npm and swaps in its published manifest around `bun pm pack`
// (or `npm pack`, `bun publish`). Run from the package directory, by its own scripts:
//   build     tsc -p tsconfig.build.json into dist/ (workspace dependencies first)
//   prepack   build, then rewrite package.json to point at dist/ (the original is kept aside)
//   postpack  put the original package.json back
// In the repository the manifests point at src/*.ts, so apps, tests, Deno and the Docker image
// run the source with no build step; only what is packed points at dist/.
import { spawnSync } from 'node:child_process'
import { chmod, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

type Target = string | null | { [condition: string]: Target }

interface Manifest {
  name: string
  version: string
  exports?: Record<string, Target>
  bin?: Record<string, string>
  files?: string[]
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  scripts?: Record<string, string>
  [field: string]: unknown
}

const TSC = fileURLToPath(import.meta.resolve('typescript/lib/tsc.js'))
/** Where the repository's own manifest waits while the packed one is in place. */
const KEPT = 'package.json.workspace'

const readManifest = async (dir: string): Promise<Manifest> =>
  JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'))

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

const built = (source: string, extension: '.js' | '.d.ts') => {
  if (!source.startsWith('./src/') || !source.endsWith('.ts')) {
    throw new Error(`${source}: expected a ./src/….ts path to map onto dist/`)
  }
  return `./dist/${source.slice('./src/'.length, -'.ts'.length)}${extension}`
}

const builtExports = (target: Target): Target => {
  if (typeof target === 'string') {
    const js = built(target, '.js')
    return { types: built(target, '.d.ts'), import: js, default: js }
  }
  if (target === null) return null
  return Object.fromEntries(
    Object.entries(target).map(([key, value]) => [key, builtExports(value)]),
  )
}

/** The directory of a workspace dependency, through the link `bun install` made for it. */
const dependencyDir = (dir: string, name: string) => realpath(join(dir, 'node_modules', name))

async function workspaceDependencies(dir: string, manifest: Manifest) {
  const found: { name: string; spec: string; dir: string }[] = []
  for (const [name, spec] of Object.entries(manifest.dependencies ?? {})) {
    if (spec.startsWith('workspace:'))
      found.push({ name, spec, dir: await dependencyDir(dir, name) })
  }
  return found
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

// tsc rewrites `./x.ts` to `./x.js` in JavaScript but not in declarations; TypeScript before 5.0
// and some tools refuse `.ts` specifiers there, so declarations get the same `.js` ones.
const RELATIVE_TS = /(from\s+|import\(\s*)(['"])(\.{1,2}\/[^'"]*?)\.ts\2/g

async function build(dir: string): Promise<void> {
  const manifest = await readManifest(dir)
  for (const dependency of await workspaceDependencies(dir, manifest)) await build(dependency.dir)
  await rm(join(dir, 'dist'), { recursive: true, force: true })
  const tsc = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.build.json'], {
    cwd: dir,
    stdio: 'inherit',
  })
  if (tsc.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed in ${dir}`)
  for (const file of await listFiles(join(dir, 'dist'))) {
    if (!file.endsWith('.d.ts')) continue
    const text = await readFile(file, 'utf8')
    await writeFile(file, text.replace(RELATIVE_TS, '$1$2$3.js$2'))
  }
  // The source keeps `#!/usr/bin/env bun` so it runs directly in the repository; the built bin
  // must run wherever npm installs it, where Node is the one runtime sure to be there.
  for (const source of Object.values(manifest.bin ?? {})) {
    const file = join(dir, built(source, '.js'))
    const text = await readFile(file, 'utf8')
    await writeFile(file, text.replace(/^#!.*\n/, '#!/usr/bin/env node\n'))
    await chmod(file, 0o755)
    await rm(join(dir, built(source, '.d.ts')))
  }
  console.log(`built ${manifest.name} into ${relative(process.cwd(), join(dir, 'dist')) || 'dist'}`)
}

/** The manifest as npm users get it: dist/ only, real version ranges, no workspace tooling. */
async function packedManifest(dir: string, manifest: Manifest): Promise<Manifest> {
  // Dev dependencies and scripts are left out: they name workspace packages and repository paths.
  const { devDependencies, scripts, exports, bin, files, ...kept } = manifest
  const dependencies = { ...manifest.dependencies }
  // The same rule as `bun publish`: workspace:* is the exact version, workspace:^ a caret range.
  for (const dependency of await workspaceDependencies(dir, manifest)) {
    const { version } = await readManifest(dependency.dir)
    const range = dependency.spec.slice('workspace:'.length)
    dependencies[dependency.name] =
      range === '*' ? version : range === '^' || range === '~' ? `${range}${version}` : range
  }
  const root = exports?.['.'] ?? './src/index.ts'
  // `src/testing/` is the repository's test fixtures: not built (tsconfig.build.json), not exported.
  const published = Object.fromEntries(
    Object.entries(exports ?? { '.': root }).filter(
      ([, target]) => typeof target !== 'string' || !target.startsWith('./src/testing/'),
    ),
  )
  return {
    ...kept,
    // For resolvers that predate `exports` (TypeScript's `node10`, old bundlers).
    ...(typeof root === 'string' ? { main: built(root, '.js'), types: built(root, '.d.ts') } : {}),
    exports: {
      ...(builtExports(published) as Record<string, Target>),
      './package.json': './package.json',
    },
    ...(bin
      ? {
          bin: Object.fromEntries(
            Object.entries(bin).map(([name, source]) => [name, built(source, '.js')]),
          ),
        }
      : {}),
    files: ['dist'],
    dependencies,
  }
}

/** Puts the repository's manifest back if a pack was interrupted before its postpack. */
async function restore(dir: string): Promise<void> {
  if (await exists(join(dir, KEPT))) await rename(join(dir, KEPT), join(dir, 'package.json'))
}

async function prepack(dir: string): Promise<void> {
  await restore(dir)
  await build(dir)
  const text = await readFile(join(dir, 'package.json'), 'utf8')
  const packed = await packedManifest(dir, JSON.parse(text))
  await writeFile(join(dir, KEPT), text)
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(packed, null, 2)}\n`)
}

const steps: Record<string, (dir: string) => Promise<void>> = {
  build,
  prepack,
  postpack: restore,
}
const step = steps[process.argv[2] ?? '']
if (!step) {
  console.error(
    'usage: bun ../../scripts/pack.ts build|prepack|postpack (from a package directory)',
  )
  process.exit(2)
}
await step(process.cwd())
