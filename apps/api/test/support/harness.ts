import { expect } from 'bun:test'
import type { Sql } from '@shiplog/db/client'
import { createSql } from '@shiplog/db/client'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { createTestDatabase, perFile, type TestDatabase } from '@shiplog/db/testing'
import type { Scope } from '@shiplog/schema'
import { loadWorkerEnv } from '@shiplog/worker/env'
import { createWorker } from '@shiplog/worker/worker'
import { loadApiEnv } from '../../src/env.ts'
import { listen } from '../../src/server/listener.ts'
import { wireApi } from '../../src/wiring.ts'

/**
 * The fields of the interface's Deployment table, stated here independently of the schema so a
 * field dropped from the code cannot silently drop out of the tests.
 */
export const CONTRACT_FIELDS = [
  'repositoryFullName',
  'environment',
  'app',
  'version',
  'commitHash',
  'description',
  'author',
  'deployedAt',
  'monorepoPath',
] as const

/** The integrations' sealing key of every harness (32 bytes in base64). */
export const TEST_SEALING_KEY = 'c2hpcGxvZy10ZXN0LXNlYWxpbmcta2V5LTMyLWJ5dGU='

/** What a test sends besides the body. */
export interface SendOptions {
  key?: string | null
  headers?: Record<string, string>
  rawBody?: BodyInit
}

/**
 * The API and the worker against a fresh database of their own, or `given` (already migrated,
 * such as a replicated primary; `close()` calls its `drop`). The worker does not poll by itself:
 * `drain()` runs it until the queue is empty, so tests wait for work, never for time.
 */
export async function startHarness(
  apiEnv: Record<string, string> = {},
  workerEnv: Record<string, string> = {},
  given?: TestDatabase,
) {
  const database: TestDatabase = given ?? (await createTestDatabase())
  const logs: Record<string, unknown>[] = []
  const env = loadApiEnv({
    DATABASE_URL: database.url,
    INTEGRATION_SEALING_KEY: TEST_SEALING_KEY,
    ...apiEnv,
  })
  const api = wireApi(env, (line) => void logs.push(line))
  await api.start()
  const worker = createWorker(
    loadWorkerEnv({ DATABASE_URL: database.url, WORKER_CONCURRENCY: '1', ...workerEnv }),
    (line) => void logs.push(line),
  )
  await worker.queue.start()
  const sql: Sql = createSql(database.url, { applicationName: 'shiplog-test', maxConnections: 4 })
  const defaultKey = (await issueApiKey(sql, { workspace: 'acme', name: 'ci' })).key

  async function request(
    method: string,
    path: string,
    options: SendOptions & { body?: unknown } = {},
  ) {
    const headers = new Headers(options.headers)
    const key = options.key === undefined ? defaultKey : options.key
    if (key !== null) headers.set('authorization', `Bearer ${key}`)
    let body: BodyInit | undefined = options.rawBody
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    }
    return api.fetch(new Request(`http://shiplog.test${path}`, { method, headers, body }))
  }

  return {
    api,
    worker,
    sql,
    logs,
    defaultKey,
    databaseUrl: database.url,
    /** Issues another key, in the default workspace unless told otherwise. */
    async createKey(
      options: { workspace?: string; rateLimitPerMinute?: number; scopes?: Scope[] } = {},
    ) {
      return issueApiKey(sql, { workspace: options.workspace ?? 'acme', name: 'test', ...options })
    },
    /** `POST /v1/deployments`. */
    post(body: unknown, options: SendOptions = {}) {
      return request('POST', '/v1/deployments', { ...options, body })
    },
    /** `POST /v1/deployments` that must be answered 202; resolves with the deployment's id. */
    async deploy(body: unknown, options: SendOptions = {}): Promise<string> {
      const response = await request('POST', '/v1/deployments', { ...options, body })
      expect(response.status).toBe(202)
      return idOf(response)
    },
    /** Any method and path, with the default key unless told otherwise. */
    send(method: string, path: string, options: SendOptions & { body?: unknown } = {}) {
      return request(method, path, options)
    },
    /** `GET` any path with the default key. */
    get(path: string, options: SendOptions = {}) {
      return request('GET', path, options)
    },
    /** Serves the API on a local port (any free one by default) as `main.ts` does. */
    async serve(wanted = 0): Promise<{ base: string; port: number; stop: () => Promise<void> }> {
      const bound = Promise.withResolvers<number>()
      const server = listen(api.fetch, {
        port: wanted,
        hostname: '127.0.0.1',
        idleTimeoutSeconds: env.IDLE_TIMEOUT_SECONDS,
        requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
        onListen: ({ port }) => bound.resolve(port),
      })
      const port = await bound.promise
      return { base: `http://127.0.0.1:${port}`, port, stop: () => server.stop() }
    },
    /** Runs the worker until the queue has nothing ready; returns how many jobs it handled. */
    async drain(): Promise<number> {
      let total = 0
      for (;;) {
        const fetched = await worker.consumer.runOnce()
        if (fetched === 0) return total
        total += fetched
      }
    },
    /**
     * Runs the worker's two loops, integrations' deliveries and chains and the deployment queue,
     * until neither has anything left: what a delivery leads to, done.
     */
    async settle(): Promise<void> {
      for (;;) {
        const integrations = await worker.integrations.runOnce()
        const deployments = await worker.consumer.runOnce()
        if (integrations + deployments === 0) return
      }
    },
    /** Recorded deployment rows of the database, for assertions. */
    async deploymentCount(): Promise<number> {
      const [row] = await sql<{ count: number }[]>`select count(*)::int as count from deployments`
      return row?.count ?? 0
    },
    async close() {
      await api.shutdown(async () => {})
      await worker.stop()
      await sql.end()
      await database.drop()
    },
  }
}

/** The harness type, for tests that share one across `beforeAll`. */
export type Harness = Awaited<ReturnType<typeof startHarness>>

/** Runs `use` with a harness of its own (its settings, a fresh database), closed afterwards. */
export async function withHarness<T>(
  apiEnv: Record<string, string>,
  use: (h: Harness) => Promise<T>,
): Promise<T> {
  const h = await startHarness(apiEnv)
  try {
    return await use(h)
  } finally {
    await h.close()
  }
}

/** A harness for the whole test file (see `perFile`). */
export function harnessPerFile(
  apiEnv: Record<string, string> = {},
  workerEnv: Record<string, string> = {},
): Harness {
  return perFile(() => startHarness(apiEnv, workerEnv))
}

/** The id a 202 names in its `Location`. */
export function idOf(response: Response): string {
  return (response.headers.get('location') as string).split('/').at(-1) as string
}
