import { createServer, type Server } from 'node:http'

/** What the worker's HTTP endpoint reports. */
export interface WorkerProbes {
  /** Undefined when ready; otherwise why not. */
  notReadyBecause(): string | undefined
  /** Prometheus text and its content type. */
  metrics(): Promise<{ body: string; contentType: string }>
}

/**
 * The worker's only HTTP surface, for Kubernetes and Prometheus: `/healthz` (the process runs),
 * `/readyz` (it can reach Postgres and is not shutting down) and `/metrics`.
 */
export function serveProbes(port: number, probes: WorkerProbes): Promise<Server> {
  const server = createServer((request, response) => {
    const reply = (status: number, body: string, contentType = 'application/json') => {
      response.writeHead(status, { 'content-type': contentType }).end(body)
    }
    if (request.url === '/healthz') return reply(200, '{"status":"ok"}')
    if (request.url === '/readyz') {
      const reason = probes.notReadyBecause()
      return reason
        ? reply(503, JSON.stringify({ status: 'not ready', reason }))
        : reply(200, '{"status":"ready"}')
    }
    if (request.url === '/metrics') {
      probes.metrics().then(
        ({ body, contentType }) => reply(200, body, contentType),
        (error) => reply(500, String(error), 'text/plain'),
      )
      return
    }
    reply(404, '{"status":"not found"}')
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, () => resolve(server))
  })
}
