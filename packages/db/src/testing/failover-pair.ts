import { readFile } from 'node:fs/promises'
import postgres from 'postgres'
import {
  cloneServer,
  initServer,
  type Server,
  serversOfTheirOwn,
  until,
} from './postgres-server.ts'

/**
 * A primary and a hot standby of their own that change places as a highly available Postgres
 * does (Patroni, CloudNativePG): the primary fails or is switched over, the standby is promoted,
 * and the old primary comes back as the new one's standby, on its old port.
 */
export interface FailoverPair {
  /** Both servers, libpq style (`postgres://…@127.0.0.1:p1,127.0.0.1:p2/shiplog`), as an app sees them. */
  readonly url: string
  /** The server that is primary now, alone. */
  primaryUrl(): string
  /**
   * Synchronous replication on or off: on, a commit on the primary returns only once the standby
   * has it on disk (`synchronous_standby_names = '*'`, `synchronous_commit` on by default).
   */
  setSynchronous(on: boolean): Promise<void>
  /**
   * Freezes the primary's WAL sender (SIGSTOP), as a slow or cut network would: the standby falls
   * behind by whatever the primary commits meanwhile, and a crash then takes it with the primary.
   * Resolves with a function that lets it go on. Synchronous commits wait meanwhile.
   */
  stallReplication(): Promise<() => void>
  /** Stops the primary: `immediate` as a crash does, `fast` as a planned switchover does. */
  stopPrimary(mode: 'immediate' | 'fast'): Promise<void>
  /** Starts the stopped primary again, on its port, still the primary (a restart, no failover). */
  restartPrimary(): Promise<void>
  /**
   * Promotes the standby. With no standby left to wait for, it stops waiting for one, as Patroni's
   * `synchronous_mode` and CloudNativePG's `dataDurability: preferred` do: else every commit
   * would hang until the old primary came back.
   */
  promoteStandby(): Promise<void>
  /**
   * Copies the new primary into the old one's folder (pg_basebackup), starts it as the new
   * primary's standby on its old port, waits until it streams, and makes it synchronous again if
   * replication was.
   */
  rejoinOldPrimary(): Promise<void>
  /** Stops both servers and removes their folders; safe to call twice. */
  stop(): Promise<void>
}

const DATABASE = 'shiplog'

/** Starts the pair: a primary with a `shiplog` database and its streaming standby, synchronous. */
export async function startFailoverPair(binaries: string): Promise<FailoverPair> {
  const admins = new Map<Server, postgres.Sql>()
  const closeAdmins = async () => {
    await Promise.all([...admins.values()].map((sql) => sql.end({ timeout: 1 }).catch(() => {})))
  }
  const { servers, stop } = await serversOfTheirOwn(
    binaries,
    'shiplog-failover-',
    ['first', 'second'],
    closeAdmins,
  )
  const admin = (server: Server) => {
    let sql = admins.get(server)
    if (!sql) {
      sql = postgres(server.url, { max: 1, onnotice: () => {}, connect_timeout: 5 })
      admins.set(server, sql)
    }
    return sql
  }
  let [primary, standby] = servers
  let synchronous = true

  const waitForStandby = async (server: Server, on: boolean) => {
    const sql = admin(server)
    await sql.unsafe(`alter system set synchronous_standby_names = '${on ? '*' : ''}'`)
    await sql`select pg_reload_conf()`
  }
  const setSynchronous = async (on: boolean) => {
    await waitForStandby(primary, on)
    synchronous = on
  }

  const untilStreaming = async (sync: boolean) => {
    const wanted = sync ? 'sync' : 'async'
    let seen: unknown
    await until(
      async () => {
        const rows = await admin(primary)<{ state: string; sync: string }[]>`
          select state, sync_state as sync from pg_stat_replication`
        seen = rows
        return rows[0]?.state === 'streaming' && rows[0].sync === wanted ? true : undefined
      },
      `${standby.name} to stream from ${primary.name}`,
      30_000,
    ).catch(async (error) => {
      const log = await readFile(standby.log, 'utf8').catch(() => '')
      throw new Error(
        `${(error as Error).message} (${wanted}; saw ${JSON.stringify(seen)})\n--- ${standby.name} log\n${log.slice(-2_500)}`,
      )
    })
  }

  try {
    await initServer(primary)
    await primary.start()
    await admin(primary).unsafe(`create database ${DATABASE}`)
    await cloneServer(primary, standby)
    await standby.start()
    await setSynchronous(true)
    await untilStreaming(true)
  } catch (error) {
    await stop()
    throw error
  }

  const url = `postgres://postgres@${servers.map((server) => `127.0.0.1:${server.port}`).join(',')}/${DATABASE}`
  const databaseOf = (server: Server) => server.url.replace(/\/postgres$/, `/${DATABASE}`)

  return {
    url,
    primaryUrl: () => databaseOf(primary),
    setSynchronous,
    async stallReplication() {
      const [row] = await admin(primary)<{ pid: number }[]>`select pid from pg_stat_replication`
      if (!row) throw new Error('the primary has no WAL sender to stall')
      process.kill(row.pid, 'SIGSTOP')
      return () => {
        try {
          process.kill(row.pid, 'SIGCONT')
        } catch {
          // It died with its primary: nothing to resume.
        }
      }
    },
    stopPrimary: (mode) => primary.stop(mode),
    restartPrimary: () => primary.start(true),
    async promoteStandby() {
      // Told before it is promoted, as Patroni does: told after, its first commits would wait.
      await waitForStandby(standby, false)
      await standby.promote()
      ;[primary, standby] = [standby, primary]
    },
    async rejoinOldPrimary() {
      // Copied afresh: pg_rewind, quicker on a large database, could not always rewind a primary
      // that crashed just after a checkpoint (its end-of-recovery record lies past the fork), and
      // Patroni falls back to the same copy then.
      await cloneServer(primary, standby)
      await standby.start(true)
      // The promoted primary waits for no standby (promoteStandby): this one streams
      // asynchronously first, then becomes synchronous again if replication was.
      await untilStreaming(false)
      if (synchronous) {
        await waitForStandby(primary, true)
        await untilStreaming(true)
      }
    },
    stop,
  }
}
