import { createSql, type Sql } from '@shiplog/db/client'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { DeploymentQueue } from '@shiplog/db/queue'
import { createTestDatabase, randomPort, type TestDatabase, waitFor } from '@shiplog/db/testing'
import { TcpProxy } from './proxy.ts'
import { expectReadModelExact } from './read-model.ts'
import { ServiceProcess } from './service.ts'

/** Ports for a stack's API processes; random, so scenarios never collide with each other. */
const freePort = randomPort

/**
 * A whole Shiplog deployment for one scenario: a fresh database, a proxy in front of Postgres that
 * the scenario can cut, and API and worker processes that reach Postgres only through it.
 */
export class Stack {
  readonly apis: { process: ServiceProcess; base: string }[] = []
  readonly workers: ServiceProcess[] = []
  key = ''

  private constructor(
    readonly database: TestDatabase,
    private readonly cuttable: TcpProxy | undefined,
    /** Direct connection for assertions and admin commands, bypassing the proxy. */
    readonly sql: Sql,
    /** The deployment queue on the direct connection, to ask what waits in it. */
    readonly queue: DeploymentQueue,
  ) {}

  /** Creates the database and the proxy, and issues a key with a quota no scenario reaches. */
  static async create(): Promise<Stack> {
    const database = await createTestDatabase()
    const url = new URL(database.url)
    const proxy = new TcpProxy({ host: url.hostname, port: Number(url.port) })
    await proxy.start()
    return Stack.open(database, proxy)
  }

  /**
   * A stack whose processes reach an already migrated database directly, by its URL (several
   * hosts, say, for a failover), with no proxy to cut.
   */
  static onDatabase(database: TestDatabase): Promise<Stack> {
    return Stack.open(database, undefined)
  }

  private static async open(database: TestDatabase, proxy: TcpProxy | undefined) {
    const sql = createSql(database.url, { applicationName: 'shiplog-faults', maxConnections: 4 })
    const queue = new DeploymentQueue(sql, {
      url: database.url,
      role: 'producer',
      applicationName: 'shiplog-faults-queue',
      log: (line) => console.error('queue (faults admin):', JSON.stringify(line)),
    })
    await queue.start()
    const stack = new Stack(database, proxy, sql, queue)
    stack.key = (
      await issueApiKey(sql, {
        workspace: 'faults',
        name: 'driver',
        rateLimitPerMinute: 100_000_000,
      })
    ).key
    return stack
  }

  /** The proxy in front of Postgres, which the scenario may stop and start. */
  get proxy(): TcpProxy {
    if (!this.cuttable) throw new Error('this stack reaches its database directly: no proxy')
    return this.cuttable
  }

  /** The database URL as the service sees it: through the proxy, when there is one. */
  get serviceUrl(): string {
    if (!this.cuttable) return this.database.url
    const url = new URL(this.database.url)
    url.port = String(this.proxy.port)
    return url.toString()
  }

  /** Starts an API process and waits until it is ready. */
  async startApi(
    env: Record<string, string> = {},
  ): Promise<{ process: ServiceProcess; base: string }> {
    const port = freePort()
    const process = new ServiceProcess('apps/api/src/main.ts', {
      DATABASE_URL: this.serviceUrl,
      PORT: String(port),
      // Any free port: a stack can run several APIs, and no scenario scrapes their metrics.
      METRICS_PORT: '0',
      LOG_REQUESTS: 'false',
      ...env,
    })
    const api = { process, base: `http://127.0.0.1:${port}` }
    await process.untilReady(`${api.base}/readyz`, 'the API to be ready', 30_000)
    this.apis.push(api)
    return api
  }

  /** Starts a worker process. */
  startWorker(env: Record<string, string> = {}): ServiceProcess {
    const worker = new ServiceProcess('apps/worker/src/main.ts', {
      DATABASE_URL: this.serviceUrl,
      WORKER_POLL_INTERVAL_MS: '50',
      WORKER_PORT: String(freePort()),
      ...env,
    })
    this.workers.push(worker)
    return worker
  }

  /** Recorded deployment rows. */
  async deploymentCount(): Promise<number> {
    const [row] = await this.sql<
      { count: number }[]
    >`select count(*)::int as count from deployments`
    return row?.count ?? 0
  }

  /** Waits until the worker has recorded every queued job (none left to fetch). */
  async untilDrained(expectedRows: number, timeoutMs = 60_000): Promise<void> {
    let rows = 0
    try {
      await waitFor(
        async () => {
          rows = await this.deploymentCount()
          return rows >= expectedRows
        },
        `${expectedRows} recorded deployments`,
        timeoutMs,
      )
    } catch (error) {
      // Say what is stuck: rows, jobs by state, and what the workers last complained about.
      const complaints = this.workers.flatMap((worker) =>
        worker.lines.filter((line) => line.level !== 'info').slice(-40),
      )
      const alive = this.workers.map((worker) => worker.child.exitCode === null)
      throw new Error(
        `${(error as Error).message}: ${rows} rows; unfinished jobs ` +
          `${JSON.stringify(await this.pendingJobs())}; workers alive ${alive.join(',')}; ` +
          `last worker errors ${JSON.stringify(complaints)}`,
      )
    }
  }

  /**
   * Deployments still in the inbox, and retries waiting or in progress (created, retry, active),
   * by state: after a drain this must be empty. Failed attempts are history and not counted.
   */
  pendingJobs(): Promise<Record<string, number>> {
    return this.queue.unrecorded()
  }

  /** Backends of this database other than our own admin connection. */
  async terminateServiceBackends(): Promise<number> {
    const rows = await this.sql<{ terminated: boolean }[]>`
      select pg_terminate_backend(pid) as terminated from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()
         and application_name like 'shiplog-%' and application_name not like 'shiplog-faults%'`
    return rows.filter((row) => row.terminated).length
  }

  /**
   * Stops every process and the proxy, checks the read model against the deployments (every
   * scenario's afterAll ends here, so a scenario that leaves it out of step fails), then drops
   * the database whatever happened.
   */
  async close(): Promise<void> {
    try {
      await Promise.all([
        ...this.apis.map((api) => api.process.stop()),
        ...this.workers.map((worker) => worker.stop()),
      ])
      await this.cuttable?.stop()
      await this.queue.stop()
      // Nothing writes any more: this is the state the scenario leaves behind.
      await expectReadModelExact(this.sql)
    } finally {
      await this.sql.end()
      await this.database.drop()
    }
  }
}
