import postgres from 'postgres'

// SQLSTATE classes that mean the server or the connection went away, not that a statement was
// wrong: 08 connection exception, 57P admin shutdown / crash / cannot connect now, 53 resources;
// and the transient rollbacks worth retrying: 40001 (on a streaming replica, a read cancelled by
// a conflict with recovery) and 40P01 (deadlock); and 25006, a write refused by a server that is
// read-only: during a failover, a standby where the primary was.
const UNAVAILABLE_SQLSTATE = /^(08|57P|53|40001|40P01|25006)/
// postgres.js's own codes for a connection it lost or could not make.
const CLIENT_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  // Every host of the URL answered, none a primary: a failover is under way (patches/postgres).
  'TARGET_SESSION_ATTRS',
])

/** True when an error means Postgres is unreachable right now (retry later), not a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code ?? '')
  return CLIENT_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)
}

// The connection was never made, so no statement reached the server.
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'TARGET_SESSION_ATTRS',
])

/** True when a statement certainly did not reach Postgres (it could not even connect). */
export function neverReachedDatabase(error: unknown): boolean {
  return NEVER_CONNECTED.has(String((error as { code?: unknown } | null)?.code ?? ''))
}

/**
 * True when Postgres cancelled a statement: the statement timeout (or an operator's cancel). The
 * request was too expensive right now, not malformed and not a sign of an outage.
 */
export function isStatementCancelled(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '57014'
}

/**
 * True when Postgres itself answered a statement with an error (it carries a SQLSTATE): the
 * database refused or cancelled the work, as opposed to an exception in our own code.
 */
export function isPostgresError(error: unknown): boolean {
  return error instanceof postgres.PostgresError
}
