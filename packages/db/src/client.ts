import { hostname } from 'node:os'
import postgres from 'postgres'

/** The postgres.js client type used across Shiplog. */
export type Sql = postgres.Sql

/** A transaction handle, as given to `sql.begin` callbacks. */
export type Tx = postgres.TransactionSql

/** Either: for a query that may run alone or inside a caller's transaction. */
export type Queryable = Sql | Tx

/** The tag of either: enough to build fragments, templates nested in another statement. */
export type SqlTag = postgres.ISql

/** A piece of a statement built with the tag, to nest inside another. */
export type Fragment = postgres.Fragment

/** What a process tells Postgres about itself and how hard it may lean on it. */
export interface ClientOptions {
  applicationName: string
  maxConnections?: number
  /** Upper bound for any single statement, so a stuck query cannot pin a request forever. */
  statementTimeoutMs?: number
  /** Settings sent when each connection starts (the plan test's generic plans, auto_explain). */
  settings?: Record<string, string>
  /** Receives the server's notices; dropped by default. */
  onNotice?: (notice: postgres.Notice) => void
  /**
   * True for a pool that only reads (DATABASE_READ_URL): any server of its URL will do, a standby
   * included, unless the URL asks otherwise. Every other pool writes, and connects only to a
   * primary.
   */
  readsOnly?: boolean
}

/**
 * The application_name a process shows in pg_stat_activity: its role plus host and pid, so an
 * operator (and the pool metric) can tell one replica's connections from another's.
 */
export function processApplicationName(role: string): string {
  return `${role} ${hostname()}:${process.pid}`.slice(0, 63)
}

// postgres.js serializes anything bound to a json/jsonb parameter with JSON.stringify, so a string
// that already holds JSON (what pg-boss passes, following node-postgres) became a JSON string
// scalar, and `data @> $1` matched nothing. A string is taken as JSON text; other values encoded.
const JSON_PASSING_STRINGS = {
  to: 114,
  from: [114, 3802],
  serialize: (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value)),
  parse: (text: string) => JSON.parse(text),
}

/**
 * Opens a connection pool; connections are made lazily and re-made after a cut. The URL may name
 * several hosts, as libpq's do (`postgres://h1:5432,h2:5432/shiplog`): each new connection tries
 * them in turn until one fits, and a query fails (an outage, `isDatabaseUnavailable`) once none
 * did. A writing pool checks, as each connection starts, that its server is a primary
 * (`target_session_attrs=read-write`, whatever the URL says): after a failover it finds the new
 * primary, and the old one come back as a standby, or a stale DNS answer, never takes a write.
 */
export function createSql(url: string, options: ClientOptions): Sql {
  return postgres(url, {
    ...(options.readsOnly ? {} : { target_session_attrs: 'read-write' as const }),
    max: options.maxConnections ?? 10,
    connect_timeout: 5,
    idle_timeout: 60,
    // postgres.js waits up to 20 s between reconnects after repeated failures (3^n / 100 s), so
    // a few seconds of outage delayed recovery by tens of seconds; retrying a refused
    // connection costs nothing, so cap the wait at 1 s.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2),
    onnotice: options.onNotice ?? (() => {}),
    types: { json: JSON_PASSING_STRINGS },
    connection: {
      application_name: options.applicationName,
      statement_timeout: options.statementTimeoutMs ?? 15_000,
      // Shiplog's statements are short and planned generically: a generic plan's cost estimate
      // can pass jit_above_cost, and compiling then took 17 of a listing's 21 ms.
      jit: 'off',
      ...options.settings,
    },
  })
}
