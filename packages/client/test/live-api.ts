import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createSql } from '@shiplog/db/client'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { createTestDatabase } from '@shiplog/db/testing'
import type { Scope } from '@shiplog/schema'
import type { Subprocess } from 'bun'

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** A deployment body that passes validation; override fields per test. */
export function validDeployment(overrides: Record<string, string> = {}) {
  return {
    repositoryFullName: 'acme/shop',
    environment: 'production',
    app: 'checkout',
    version: '1.2.3',
    commitHash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
    ...overrides,
  }
}

/** A port nobody listens on right now (the OS picks it, so parallel runs do not collide). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}

interface Child {
  name: string
  process: Subprocess<'ignore', 'pipe', 'pipe'>
  output: string
}

async function collect(stream: ReadableStream<Uint8Array>, child: Child): Promise<void> {
  const decoder = new TextDecoder()
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    child.output = (child.output + decoder.decode(value, { stream: true })).slice(-8_000)
  }
}

/**
 * The real API and worker as separate processes (`bun apps/api/src/main.ts`,
 * `bun apps/worker/src/main.ts`) on free ports, against a fresh migrated database of their own:
 * what a pipeline talks to, with no test doubles in between.
 */
export async function startLiveApi() {
  const database = await createTestDatabase()
  const sql = createSql(database.url, { applicationName: 'shiplog-client-test', maxConnections: 2 })
  const [apiPort, workerPort] = [await freePort(), await freePort()]
  const children: Child[] = []

  const start = (name: string, entry: string, env: Record<string, string>) => {
    const child: Child = {
      name,
      output: '',
      process: Bun.spawn(['bun', entry], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: database.url, ...env },
        stdin: 'ignore',
        stdout: 'pipe',
        stderr: 'pipe',
      }),
    }
    void collect(child.process.stdout, child)
    void collect(child.process.stderr, child)
    children.push(child)
  }
  start('api', 'apps/api/src/main.ts', {
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    // Any free port: the client never scrapes metrics.
    METRICS_PORT: '0',
    LOG_REQUESTS: 'false',
  })
  start('worker', 'apps/worker/src/main.ts', {
    WORKER_PORT: String(workerPort),
    WORKER_POLL_INTERVAL_MS: '50',
  })

  const url = `http://127.0.0.1:${apiPort}`
  const ready = async (probe: string) => {
    const deadline = Date.now() + 30_000
    for (;;) {
      const exited = children.find((child) => child.process.exitCode !== null)
      if (exited) throw new Error(`${exited.name} exited early:\n${exited.output}`)
      const ok = await fetch(probe).then(
        (response) => response.ok,
        () => false,
      )
      if (ok) return
      if (Date.now() > deadline) {
        throw new Error(`${probe} not ready in 30 s:\n${children.map((c) => c.output).join('\n')}`)
      }
      await Bun.sleep(50)
    }
  }
  await ready(`${url}/readyz`)
  await ready(`http://127.0.0.1:${workerPort}/readyz`)

  return {
    url,
    /** Issues a key in a workspace of its own unless told otherwise. */
    async createKey(
      options: { workspace?: string; rateLimitPerMinute?: number; scopes?: Scope[] } = {},
    ) {
      const workspace = options.workspace ?? `client-${crypto.randomUUID().slice(0, 8)}`
      const issued = await issueApiKey(sql, {
        workspace,
        name: 'client-test',
        rateLimitPerMinute: options.rateLimitPerMinute,
        scopes: options.scopes,
      })
      return issued.key
    },
    /** What the processes printed, for a failing test's message. */
    output: () => children.map((child) => `--- ${child.name}\n${child.output}`).join('\n'),
    async close() {
      for (const child of children) child.process.kill('SIGTERM')
      await Promise.all(children.map((child) => child.process.exited))
      await sql.end()
      await database.drop()
    },
  }
}

export type LiveApi = Awaited<ReturnType<typeof startLiveApi>>
