import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'
import { ROOT } from '../live-api.ts'
import { nodeOnlyPath } from '../node-only-path.ts'

export const PACKAGES = ['schema', 'client'] as const

/** Both packages packed and installed into a Node project of their own. */
export interface Packed {
  /** The project directory, outside the repository, where npm installed both tarballs. */
  dir: string
  tarballs: Record<(typeof PACKAGES)[number], string>
  /** Each package's `package.json` before packing, to prove `postpack` put it back. */
  manifestsBefore: Record<string, string>
  /** PATH with node, npm, npx and sh only. */
  path: string
}

/** Runs a command to completion, throwing with its output unless it exits 0. */
export async function run(
  command: string[],
  options: { cwd: string; env?: Record<string, string> },
) {
  const { stdout, stderr, code } = await runProcess(command, {
    cwd: options.cwd,
    env: options.env ?? process.env,
  })
  if (code !== 0) throw new Error(`${command.join(' ')} exited ${code}:\n${stdout}\n${stderr}`)
  return stdout
}

const PREFIX = 'shiplog-packed-'

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM'
  }
}

/**
 * The project is shared by several test files and `bun test` runs no exit hooks, so no file can
 * remove it; each run removes instead what runs that have ended left (named by their pid).
 */
async function removeLeftovers(): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    const pid = Number(name.startsWith(PREFIX) ? name.slice(PREFIX.length).split('-')[0] : NaN)
    if (Number.isInteger(pid) && pid !== process.pid && !isRunning(pid)) {
      await rm(join(tmpdir(), name), { recursive: true, force: true })
    }
  }
}

/**
 * `bun pm pack` of both packages (their prepack builds dist/), then `npm install` of the two
 * tarballs into a fresh Node project in the temporary directory, with no Bun on PATH: what a team
 * outside this repository gets. Made once per test run and shared by the test files.
 */
async function packAndInstall(): Promise<Packed> {
  await removeLeftovers()
  const base = await mkdtemp(join(tmpdir(), `${PREFIX}${process.pid}-`))
  const tarballDir = join(base, 'tarballs')
  const manifestsBefore: Record<string, string> = {}
  const tarballs = {} as Packed['tarballs']
  for (const name of PACKAGES) {
    const cwd = join(ROOT, 'packages', name)
    manifestsBefore[name] = await readFile(join(cwd, 'package.json'), 'utf8')
    // With --quiet the last line is the tarball's path (the build before it logs too).
    const printed = await run(['bun', 'pm', 'pack', '--destination', tarballDir, '--quiet'], {
      cwd,
    })
    tarballs[name] = printed.trim().split('\n').at(-1) ?? ''
  }

  const dir = join(base, 'project')
  await mkdir(dir)
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'scratch', private: true, type: 'module' }, null, 2)}\n`,
  )
  const nodeOnly = await nodeOnlyPath(join(base, 'bin'))
  // @types/node is what a Node project type-checks against; the rest comes from the tarballs.
  await run(
    [
      'npm',
      'install',
      '--no-audit',
      '--no-fund',
      tarballs.schema,
      tarballs.client,
      '@types/node@20',
    ],
    { cwd: dir, env: { PATH: nodeOnly.path, HOME: process.env.HOME ?? base } },
  )
  return { dir, tarballs, manifestsBefore, path: nodeOnly.path }
}

/**
 * Runs a command in the project with only node, npm, npx and sh on PATH; resolves with its exit
 * code and output, npm's own notices (e.g. about the user's .npmrc) left out of stderr.
 */
export async function runInProject(
  project: Packed,
  command: string[],
  env: Record<string, string> = {},
) {
  const { stdout, stderr, code } = await runProcess(command, {
    cwd: project.dir,
    env: { PATH: project.path, HOME: process.env.HOME ?? project.dir, NO_COLOR: '1', ...env },
  })
  return { stdout, stderr: stderr.replace(/^npm (warn|notice) .*\n/gm, ''), code }
}

let packed: Promise<Packed> | undefined

/** The packed, installed project (made on first use). */
export function packedProject(): Promise<Packed> {
  packed ??= packAndInstall()
  return packed
}
