import { existsSync, rmSync } from 'node:fs'
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomPort } from './free-port.ts'
import { giveToServerUser, runPostgresTool, runPostgresToolNow } from './postgres-binaries.ts'
import { waitFor } from './wait-for.ts'

// Real Postgres servers of a test's own, each in a temporary folder, for what the shared test
// server cannot be put through: replication (streaming-replica.ts) and crashes.

const HBA = `local all all trust
host all all 127.0.0.1/32 trust
local replication all trust
host replication all 127.0.0.1/32 trust
`

// Copied to the replica by pg_basebackup. fsync is off because these clusters are thrown away,
// and no test here crashes the machine: an immediate shutdown (a crash of Postgres) loses what
// its processes had not yet written to the operating system, whatever fsync says.
const settings = (socketFolder: string) => `
listen_addresses = '127.0.0.1'
unix_socket_directories = '${socketFolder}'
wal_level = replica
max_wal_senders = 4
hot_standby = on
fsync = off
`

/** One server: its data folder and, once started, its port. */
export class Server {
  port = 0
  /** The log of the latest start, kept in the folder. */
  log = ''
  constructor(
    readonly binaries: string,
    readonly root: string,
    readonly name: string,
  ) {}

  get folder(): string {
    return join(this.root, this.name)
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`
  }

  // randomPort() may pick a port in use: only a failure to bind is worth another port. A restart
  // (`samePort`) keeps the port its clients know.
  async start(samePort = false): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (!samePort) this.port = randomPort()
      this.log = join(this.root, `${this.name}-${attempt}.log`)
      const options = `-p ${this.port}`
      try {
        return await runPostgresTool(
          this.binaries,
          'pg_ctl',
          ['start', '-D', this.folder, '-l', this.log, '-w', '-t', '30', '-o', options],
          this.root,
        )
      } catch (error) {
        const text = await readFile(this.log, 'utf8').catch(() => '')
        if (!samePort && attempt < 5 && /could not bind|address already in use/i.test(text))
          continue
        throw new Error(`${(error as Error).message}\n${text.slice(-2_000)}`)
      }
    }
  }

  /**
   * Stops it: `immediate` as a crash does (no checkpoint, no WAL flushed), `fast` as a planned
   * switchover does (clients are told, the WAL is flushed and shipped).
   */
  async stop(mode: 'immediate' | 'fast' = 'immediate'): Promise<void> {
    if (!existsSync(join(this.folder, 'postmaster.pid'))) return
    await runPostgresTool(
      this.binaries,
      'pg_ctl',
      ['stop', '-D', this.folder, '-m', mode, '-w'],
      this.root,
    )
  }

  /** Ends recovery: this standby becomes a primary. */
  async promote(): Promise<void> {
    await runPostgresTool(this.binaries, 'pg_ctl', ['promote', '-D', this.folder, '-w'], this.root)
  }

  stopNow(): void {
    if (existsSync(join(this.folder, 'postmaster.pid'))) {
      runPostgresToolNow(
        this.binaries,
        'pg_ctl',
        ['stop', '-D', this.folder, '-m', 'immediate'],
        this.root,
      )
    }
  }
}

// Servers still running when the process exits (a test run killed or timed out in setup) are
// stopped there, so no stray postmaster outlives the run.
const live = new Set<() => void>()
process.once('exit', () => {
  for (const cleanup of live) cleanup()
})

/** Polls `probe` until it answers (errors count as no answer); fails after `timeoutMs`. */
export async function until<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs: number,
) {
  let found: T | undefined
  await waitFor(
    async () => {
      found = await probe().catch(() => undefined)
      return found !== undefined
    },
    what,
    timeoutMs,
  )
  return found as T
}

/** Creates the server's cluster: trust for 127.0.0.1, replication included. */
export async function initServer(primary: Server): Promise<void> {
  await runPostgresTool(
    primary.binaries,
    'initdb',
    ['-D', primary.folder, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    primary.root,
  )
  await appendFile(join(primary.folder, 'postgresql.conf'), settings(primary.root))
  await writeFile(join(primary.folder, 'pg_hba.conf'), HBA)
}

/**
 * Copies `of` into `into`'s folder (emptied first) with pg_basebackup -R: started, the copy is a
 * streaming standby of `of`.
 */
export async function cloneServer(of: Server, into: Server): Promise<void> {
  await rm(into.folder, { recursive: true, force: true })
  await runPostgresTool(
    of.binaries,
    'pg_basebackup',
    [
      ...['-h', '127.0.0.1', '-p', String(of.port), '-U', 'postgres'],
      ...['-D', into.folder, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
    ],
    of.root,
  )
}

/**
 * Servers named `names` in a new temporary folder, `stop`ped (after `beforeStop`) and removed
 * once, by `stop()` or when the process exits. The first is the one the others depend on.
 */
export async function serversOfTheirOwn<Names extends string[]>(
  binaries: string,
  prefix: string,
  names: [...Names],
  beforeStop: () => Promise<void> = async () => {},
) {
  const root = await mkdtemp(join(tmpdir(), prefix))
  await giveToServerUser(root)
  const servers = names.map((name) => new Server(binaries, root, name)) as {
    [Index in keyof Names]: Server
  }
  const cleanupNow = () => {
    for (const server of [...servers].reverse()) server.stopNow()
    rmSync(root, { recursive: true, force: true })
  }
  live.add(cleanupNow)
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await beforeStop()
    await Promise.allSettled(servers.map((server) => server.stop()))
    await rm(root, { recursive: true, force: true })
    live.delete(cleanupNow)
  }
  return { root, servers, stop }
}

/** A Postgres of the test's own, that the test may crash and start again. */
export interface OwnPostgres {
  url: string
  /** Stops it as a crash would (`pg_ctl stop -m immediate`: no checkpoint, no WAL flushed). */
  crash(): Promise<void>
  /** Starts it again on the same port; recovery replays the WAL that was written. */
  restart(): Promise<void>
  /** Stops it and removes its folder; safe to call twice. */
  stop(): Promise<void>
}

/** Starts a Postgres of the test's own (initdb, a free port), as the `postgres` user when root. */
export async function startOwnPostgres(binaries: string): Promise<OwnPostgres> {
  const {
    servers: [server],
    stop,
  } = await serversOfTheirOwn(binaries, 'shiplog-own-', ['server'])
  try {
    await initServer(server)
    await server.start()
  } catch (error) {
    await stop()
    throw error
  }
  return {
    url: server.url,
    crash: () => server.stop(),
    restart: () => server.start(true),
    stop,
  }
}
