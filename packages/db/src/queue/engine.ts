// The retry and dead-letter engine behind the deployment queue: pg-boss, the only file that
// imports it. A deployment's first attempt is its inbox row (inbox.ts); one that fails moves to
// pg-boss's queue of retries, which backs off and, after the last attempt, dead-letters it.
import { type Db, PgBoss } from 'pg-boss'
import { createSql, type Sql, type Tx } from '../client.ts'

/** The engine's handle; only this module's files use it. */
export type Engine = PgBoss

/** The engine's queue of deployments waiting for another attempt (named before the inbox was). */
export const RETRIES = 'deployments'

/** Where a deployment lands after its last failed attempt, to be listed and replayed. */
export const DEAD_LETTERS = 'deployments-dead'

/** How failed jobs are retried and how long their traces are kept. */
export interface RetryPolicy {
  retryLimit: number
  retryDelaySeconds: number
  retryDelayMaxSeconds: number
}

/** Retries with exponential backoff for about ten minutes before a job is dead-lettered. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retryLimit: 6,
  retryDelaySeconds: 5,
  retryDelayMaxSeconds: 300,
}

const DAY = 24 * 60 * 60

/** What a process uses the queue for, which decides what the engine runs in it. */
export type QueueRole = 'migrate' | 'producer' | 'worker'

/**
 * Creates (without starting) the engine of a process. Only the migration step installs its
 * schema; only workers run its maintenance. Producers insert through our own transactions, so
 * their pool stays tiny.
 *
 * The engine runs on postgres.js pools of its own, not on node-postgres (pg-boss's default): pg
 * cannot parse a URL with several hosts, and would keep writing to a server that came back as a
 * standby; our pools find the primary (client.ts).
 */
export function createEngine(url: string, role: QueueRole, applicationName: string): Engine {
  const pools = enginePools(url, role, applicationName)
  const boss = new PgBoss({
    db: viaEnginePools(pools),
    migrate: role === 'migrate',
    supervise: role === 'worker',
    schedule: false,
    persistWarnings: false,
  })
  poolsOf.set(boss, pools)
  return boss
}

interface EnginePools {
  /** Statements with parameters: pg-boss's fetches, inserts and settlements, prepared. */
  statements: Sql
  /**
   * Texts without parameters, in the simple protocol, as node-postgres sends them: pg-boss's
   * migrations and locked maintenance are several statements, BEGIN to COMMIT, in one text, which
   * postgres.js runs only on a pool of one connection.
   */
  scripts: Sql
}

const poolsOf = new WeakMap<Engine, EnginePools>()

function enginePools(url: string, role: QueueRole, applicationName: string): EnginePools {
  return {
    statements: createSql(url, { applicationName, maxConnections: role === 'worker' ? 4 : 2 }),
    scripts: createSql(url, { applicationName, maxConnections: 1 }),
  }
}

function viaEnginePools({ statements, scripts }: EnginePools): Db {
  const prepared = viaPostgresJs(statements)
  return {
    executeSql: async (text, values = []) => {
      if (values.length > 0) return prepared.executeSql(text, values)
      try {
        return { rows: await scripts.unsafe(text).simple() }
      } catch (error) {
        // A script that failed after its BEGIN leaves the connection in an aborted transaction,
        // which would fail every later script: end it (a no-op warning when there was none).
        await scripts
          .unsafe('rollback')
          .simple()
          .catch(() => {})
        throw error
      }
    },
  }
}

/** Where the queue's helpers report what they do not throw: one structured line each. */
export type QueueLog = (line: Record<string, unknown>) => void

const toStderr: QueueLog = (line) => console.error(JSON.stringify(line))

/**
 * Stops pg-boss at once and closes its pool, for a process on its way out: a failure here must
 * not replace the outcome being reported, so it is logged rather than thrown.
 */
export async function stopEngine(boss: Engine, log: QueueLog = toStderr): Promise<void> {
  await boss.stop({ graceful: false, close: true }).catch((error) => {
    log({ level: 'warn', msg: 'queue did not stop cleanly', error: String(error) })
  })
  const pools = poolsOf.get(boss)
  await Promise.all(
    [pools?.statements, pools?.scripts].map((pool) => pool?.end({ timeout: 5 }).catch(() => {})),
  )
}

/**
 * Starts pg-boss, retrying (backing off to every 5 s) while Postgres is unreachable or not yet
 * migrated. Resolves true once started, or false when `cancelled()` turned true first (shutdown).
 */
export async function startEngine(
  boss: Engine,
  log: QueueLog,
  cancelled: () => boolean = () => false,
): Promise<boolean> {
  for (let attempt = 1; !cancelled(); attempt++) {
    try {
      await boss.start()
      return true
    } catch (error) {
      log({ level: 'warn', msg: 'queue not ready, retrying', attempt, error: String(error) })
      await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * attempt)))
    }
  }
  return false
}

/**
 * Creates the deployment queues if absent. With a policy, also applies it to existing queues
 * (what the migration step does); without one, existing queues keep theirs. Safe to run from
 * several replicas at once: pg-boss serialises queue creation under an advisory lock.
 */
export async function ensureQueues(boss: Engine, policy?: RetryPolicy) {
  const deadLetter = { retentionSeconds: 30 * DAY, deleteAfterSeconds: 30 * DAY }
  const effective = policy ?? DEFAULT_RETRY_POLICY
  const main = {
    retryLimit: effective.retryLimit,
    retryDelay: effective.retryDelaySeconds,
    retryBackoff: true,
    retryDelayMax: effective.retryDelayMaxSeconds,
    expireInSeconds: 120,
    retentionSeconds: 14 * DAY,
    deleteAfterSeconds: DAY,
    deadLetter: DEAD_LETTERS,
  }
  await boss.createQueue(DEAD_LETTERS, { partition: true, ...deadLetter })
  await boss.createQueue(RETRIES, { partition: true, ...main })
  if (policy) {
    await boss.updateQueue(DEAD_LETTERS, deadLetter)
    await boss.updateQueue(RETRIES, main)
  }
}

/**
 * Lets pg-boss run its statements through postgres.js: inside one of our transactions, so a job
 * and the rows that go with it commit or roll back together, or on our pool for a lone statement.
 */
export function viaPostgresJs(tx: Sql | Tx): Db {
  return {
    // pg-boss's statements are a fixed set of texts, so they are prepared once per connection;
    // unprepared, postgres.js would parse and describe each one again, a round trip per batch.
    executeSql: async (text, values = []) => ({
      rows: await tx.unsafe(text, values as never[], { prepare: true }),
    }),
  }
}
