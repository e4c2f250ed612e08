import { existsSync, rmSync } from 'node:fs'
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { randomPort } from './free-port.ts'
import { giveToServerUser, runPostgresTool, runPostgresToolNow } from './postgres-binaries.ts'

export { findPostgresBinaries } from './postgres-binaries.ts'

/** A primary and its streaming replica, each a real Postgres of its own in a temporary folder. */
export interface StreamingReplica {
  primaryUrl: string
  replicaUrl: string
  /**
   * Resolves once the replica has replayed all the WAL the primary has written so far (never,
   * while replay is paused with `pg_wal_replay_pause()`: resume it first).
   */
  waitForReplay(timeoutMs?: number): Promise<void>
  /** Stops the replica alone, as an outage would; `stop` still cleans up. */
  stopReplica(): Promise<void>
  /** Stops both servers and removes their folders; safe to call twice. */
  stop(): Promise<void>
}

const HBA = `local all all trust
host all all 127.0.0.1/32 trust
local replication all trust
host replication all 127.0.0.1/32 trust
`

// Copied to the replica by pg_basebackup. fsync is off because these clusters are thrown away:
// what the tests check is replication and routing, not durability.
const settings = (socketFolder: string) => `
listen_addresses = '127.0.0.1'
unix_socket_directories = '${socketFolder}'
wal_level = replica
max_wal_senders = 4
hot_standby = on
fsync = off
`

/** One server: its data folder and, once started, its port. */
class Server {
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

  // randomPort() may pick a port in use: only a failure to bind is worth another port.
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.port = randomPort()
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
        if (attempt < 5 && /could not bind|address already in use/i.test(text)) continue
        throw new Error(`${(error as Error).message}\n${text.slice(-2_000)}`)
      }
    }
  }

  async stop(): Promise<void> {
    if (!existsSync(join(this.folder, 'postmaster.pid'))) return
    await runPostgresTool(
      this.binaries,
      'pg_ctl',
      ['stop', '-D', this.folder, '-m', 'immediate', '-w'],
      this.root,
    )
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

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await probe().catch(() => undefined)
    if (found !== undefined) return found
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

async function initPrimary(primary: Server): Promise<void> {
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
 * Starts a primary (initdb, wal_level replica, trust for 127.0.0.1 including replication) and a
 * streaming replica of it (pg_basebackup -R, hot standby), on ports of their own and sockets in
 * their temporary folder, as the `postgres` OS user when run as root. Resolves once the replica
 * is in recovery and streaming. Call `stop()` in `afterAll`.
 */
export async function startStreamingReplica(binaries: string): Promise<StreamingReplica> {
  const root = await mkdtemp(join(tmpdir(), 'shiplog-replica-'))
  await giveToServerUser(root)
  const primary = new Server(binaries, root, 'primary')
  const replica = new Server(binaries, root, 'replica')
  const cleanupNow = () => {
    replica.stopNow()
    primary.stopNow()
    rmSync(root, { recursive: true, force: true })
  }
  live.add(cleanupNow)
  const admins: postgres.Sql[] = []
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await Promise.all(admins.map((admin) => admin.end({ timeout: 1 }).catch(() => {})))
    await Promise.allSettled([replica.stop(), primary.stop()])
    await rm(root, { recursive: true, force: true })
    live.delete(cleanupNow)
  }
  try {
    await initPrimary(primary)
    await primary.start()
    // -R writes standby.signal and primary_conninfo: the copy starts as a streaming standby.
    await runPostgresTool(
      binaries,
      'pg_basebackup',
      [
        ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'],
        ...['-D', replica.folder, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
      ],
      root,
    )
    await replica.start()
    const onPrimary = postgres(primary.url, { max: 1, onnotice: () => {} })
    const onReplica = postgres(replica.url, { max: 1, onnotice: () => {} })
    admins.push(onPrimary, onReplica)
    await until(
      async () => {
        const [row] = await onReplica<{ recovery: boolean; status: string | null }[]>`
          select pg_is_in_recovery() as recovery,
                 (select status from pg_stat_wal_receiver) as status`
        return row?.recovery && row.status === 'streaming' ? true : undefined
      },
      'the replica to stream from the primary',
      15_000,
    )
    return {
      primaryUrl: primary.url,
      replicaUrl: replica.url,
      async waitForReplay(timeoutMs = 10_000) {
        const [written] = await onPrimary<{ lsn: string }[]>`
          select pg_current_wal_lsn()::text as lsn`
        const lsn = written?.lsn ?? '0/0'
        await until(
          async () => {
            const [row] = await onReplica<{ done: boolean }[]>`
              select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as done`
            return row?.done ? true : undefined
          },
          `the replica to replay up to ${lsn}`,
          timeoutMs,
        )
      },
      stopReplica: () => replica.stop(),
      stop,
    }
  } catch (error) {
    // The servers' logs go with their folder: keep the end of each in the error.
    const logs = await Promise.all(
      [primary, replica].map(async (server) => {
        const text = server.log ? await readFile(server.log, 'utf8').catch(() => '') : ''
        return text ? `\n--- ${server.name} log\n${text.slice(-1_500)}` : ''
      }),
    )
    await stop()
    throw new Error(`${(error as Error).message}${logs.join('')}`)
  }
}
