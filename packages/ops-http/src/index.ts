// What every long-running Shiplog process (API, worker) shows its operators: this file is the
// operational listener (`/metrics`, probes); `log.ts` the JSON log line; `shutdown.ts` the
// graceful stop on SIGTERM.
import { createServer, type Server } from 'node:http'

/** What an operational listener reports. */
export interface OperationalEndpoints {
  /** Prometheus text and its content type, for `/metrics`. */
  metrics(): Promise<{ body: string; contentType: string }>
  /**
   * Undefined when ready, otherwise why not. When given, `/healthz` and `/readyz` are served
   * too (the worker's probes); without it, only `/metrics` (the API probes its public port).
   */
  notReadyBecause?(): string | undefined
}

/** What `/metrics` needs of a prom-client registry. */
export interface MetricsRegistry {
  metrics(): Promise<string>
  contentType: string
}

/** The `/metrics` answer of a registry whose gauges `refresh` sets first, at scrape time. */
export function scrapeOf(
  registry: MetricsRegistry,
  refresh: () => Promise<void>,
): OperationalEndpoints['metrics'] {
  return async () => {
    await refresh()
    return { body: await registry.metrics(), contentType: registry.contentType }
  }
}

/**
 * A process's HTTP surface for Kubernetes and Prometheus, on a port of its own that is never
 * exposed publicly: `/metrics`, and `/healthz` (the process runs) and `/readyz` when probes are
 * given. Everything else is 404. `node:http`, so it runs under Bun and Deno alike. Port 0 binds
 * any free port (read it from `address()`); `hostname` defaults to every interface.
 */
export function serveOperational(
  port: number,
  endpoints: OperationalEndpoints,
  hostname?: string,
): Promise<Server> {
  const { notReadyBecause } = endpoints
  const server = createServer((request, response) => {
    const reply = (status: number, body: string, contentType = 'application/json') => {
      response.writeHead(status, { 'content-type': contentType }).end(body)
    }
    if (notReadyBecause && request.url === '/healthz') return reply(200, '{"status":"ok"}')
    if (notReadyBecause && request.url === '/readyz') {
      const reason = notReadyBecause()
      return reason
        ? reply(503, JSON.stringify({ status: 'not ready', reason }))
        : reply(200, '{"status":"ready"}')
    }
    if (request.url === '/metrics') {
      endpoints.metrics().then(
        ({ body, contentType }) => reply(200, body, contentType),
        (error) => reply(500, String(error), 'text/plain'),
      )
      return
    }
    reply(404, '{"status":"not found"}')
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    const listening = () => resolve(server)
    if (hostname === undefined) server.listen(port, listening)
    else server.listen(port, hostname, listening)
  })
}

/** Stops accepting and resolves once open connections are done; idle keep-alives are closed. */
export function stopOperational(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeIdleConnections()
  })
}
