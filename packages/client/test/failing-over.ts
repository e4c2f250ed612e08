import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the stand-in does with one API request while the outage lasts. */
export type Outcome = { answer: 503 | 429; retryAfter?: string } | { answer: 'drop' }

/** A request as it reached the stand-in. */
export interface Received {
  method: string
  path: string
  idempotencyKey: string | null
  body: string
}

/** A running stand-in; see `failingOver`. */
export type FailingOver = Awaited<ReturnType<typeof failingOver>>

/** `n` copies of one outcome: an outage longer than any budget under test. */
export const repeated = (outcome: Outcome, n = 1_000): Outcome[] => Array(n).fill(outcome)

/**
 * A stand-in for the Shiplog API through a Postgres failover, on 127.0.0.1: each `/v1/` request
 * takes the next of `outcomes` (a 503 or 429, with or without Retry-After, or a connection cut
 * before any answer), then `POST /v1/deployments` is accepted (202, one id per Idempotency-Key).
 * With `refusing`, nothing listens on its port until `start()`, as when a load balancer has no
 * ready replica. `cli` is served at `/cli/shiplog.mjs`, outage or not, as the API serves it.
 * Node's HTTP server rather than Bun.serve: only it can cut a request's connection.
 */
export async function failingOver(
  outcomes: Outcome[],
  options: { refusing?: boolean; cli?: string } = {},
) {
  const received: Received[] = []
  const ids = new Map<string | null, string>()
  const pending = [...outcomes]
  const server: Server = createServer(async (request, response) => {
    const path = request.url ?? '/'
    if (path === '/cli/shiplog.mjs' && options.cli) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(options.cli)
      return
    }
    let body = ''
    for await (const chunk of request) body += chunk
    const idempotencyKey = request.headers['idempotency-key']?.toString() ?? null
    received.push({ method: request.method ?? '', path, idempotencyKey, body })
    const outcome = path.startsWith('/v1/') ? pending.shift() : undefined
    if (outcome?.answer === 'drop') {
      request.socket.destroy()
      return
    }
    if (outcome) {
      const headers = outcome.retryAfter === undefined ? {} : { 'retry-after': outcome.retryAfter }
      response.writeHead(outcome.answer, { 'content-type': 'application/problem+json', ...headers })
      response.end(
        JSON.stringify({
          type: '/problems/unavailable',
          title: 'Service Unavailable',
          status: outcome.answer,
          detail: 'Nothing was accepted: retry after Retry-After.',
        }),
      )
      return
    }
    if (request.method === 'POST' && path === '/v1/deployments') {
      const id = ids.get(idempotencyKey) ?? crypto.randomUUID()
      ids.set(idempotencyKey, id)
      response.writeHead(202, { location: `/v1/deployments/${id}` }).end('{"status":202}')
      return
    }
    response.writeHead(404).end()
  })
  const listen = (port: number) =>
    new Promise<number>((resolve) =>
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
    )
  // A port the system picked, then left unbound: connections to it are refused until start().
  let port = await listen(0)
  if (options.refusing) await new Promise((resolve) => server.close(resolve))
  let listening = !options.refusing
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** The ids given, by Idempotency-Key. */
    ids,
    async start() {
      if (listening) return
      listening = true
      port = await listen(port)
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        // Called with an error when it was not listening: stopped either way.
        server.close(() => resolve())
      }),
  }
}
