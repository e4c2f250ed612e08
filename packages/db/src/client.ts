import postgres from 'postgres'

/** The postgres.js client type used across Shiplog. */
export type Sql = postgres.Sql

/** A transaction handle, as given to `sql.begin` callbacks. */
export type Tx = postgres.TransactionSql

/** What a process tells Postgres about itself and how hard it may lean on it. */
export interface ClientOptions {
  applicationName: string
  maxConnections?: number
  /** Upper bound for any single statement, so a stuck query cannot pin a request forever. */
  statementTimeoutMs?: number
}

/** Opens a connection pool; connections are made lazily and re-made after a cut. */
export function createSql(url: string, options: ClientOptions): Sql {
  return postgres(url, {
    max: options.maxConnections ?? 10,
    connect_timeout: 5,
    idle_timeout: 60,
    onnotice: () => {},
    connection: {
      application_name: options.applicationName,
      statement_timeout: options.statementTimeoutMs ?? 15_000,
    },
  })
}
