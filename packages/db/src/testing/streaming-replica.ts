import { readFile } from 'node:fs/promises'
import postgres from 'postgres'
import { cloneServer, initServer, serversOfTheirOwn, until } from './postgres-server.ts'

export { findPostgresBinaries } from './postgres-binaries.ts'

/** A primary and its streaming replica, each a real Postgres of its own in a temporary folder. */
export interface StreamingReplica {
  primaryUrl: string
  replicaUrl: string
  /**
   * Resolves once the replica has replayed everything the primary has committed so far, including
   * batches the worker committed without waiting for the flush: they reach the replica once the
   * primary's WAL writer has flushed them, within a second. Never resolves while replay is paused
   * with `pg_wal_replay_pause()`: resume it first.
   */
  waitForReplay(timeoutMs?: number): Promise<void>
  /** Stops the replica alone, as an outage would; `stop` still cleans up. */
  stopReplica(): Promise<void>
  /** Stops both servers and removes their folders; safe to call twice. */
  stop(): Promise<void>
}

/**
 * Starts a primary (initdb, wal_level replica, trust for 127.0.0.1 including replication) and a
 * streaming replica of it (pg_basebackup -R, hot standby), on ports of their own and sockets in
 * their temporary folder, as the `postgres` OS user when run as root. Resolves once the replica
 * is in recovery and streaming. Call `stop()` in `afterAll`.
 */
export async function startStreamingReplica(binaries: string): Promise<StreamingReplica> {
  const admins: postgres.Sql[] = []
  const closeAdmins = async () => {
    await Promise.all(admins.map((admin) => admin.end({ timeout: 1 }).catch(() => {})))
  }
  const { servers, stop } = await serversOfTheirOwn(
    binaries,
    'shiplog-replica-',
    ['primary', 'replica'],
    closeAdmins,
  )
  const [primary, replica] = servers
  try {
    await initServer(primary)
    await primary.start()
    // -R writes standby.signal and primary_conninfo: the copy starts as a streaming standby.
    await cloneServer(primary, replica)
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
          select pg_current_wal_insert_lsn()::text as lsn`
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
