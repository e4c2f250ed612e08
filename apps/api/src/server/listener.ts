// The socket side of the API: Bun.serve or Deno.serve behind one `listen`. `lifecycle.ts` runs it.
import { problemResponse, problems } from '../kernel/problems.ts'
import { rememberRemoteAddress } from './client-address.ts'
import type { Handler } from './deadline.ts'

const SHUTTING_DOWN = 'This instance is shutting down; retry shortly.'

/** Where and how to listen; the same settings under Bun and Deno. */
export interface ListenOptions {
  port: number
  hostname: string
  idleTimeoutSeconds: number
  /** Every request is answered by then (`withDeadline`); its connection must outlive that. */
  requestTimeoutMs: number
  /** Called once the socket is bound, with the port actually bound (useful with port 0). */
  onListen: (address: { port: number; hostname: string }) => void
}

/** A listening server, whichever runtime runs it. */
export interface RunningServer {
  /** Stops accepting connections and resolves once in-flight requests have been answered. */
  stop(): Promise<void>
}

// The little of Deno's API used here, typed locally: the project's types are Bun's, and pulling
// in Deno's would clash with them.
interface DenoServer {
  shutdown(): Promise<void>
  finished: Promise<void>
}
interface DenoServeInfo {
  remoteAddr: { hostname: string } | { path: string }
}
interface DenoNamespace {
  serve(
    options: {
      port: number
      hostname: string
      onListen: (address: { port: number; hostname: string }) => void
    },
    handler: (request: Request, info: DenoServeInfo) => Response | Promise<Response>,
  ): DenoServer
}

const deno = (globalThis as { Deno?: DenoNamespace }).Deno

/** The runtime this process runs on, for logs. */
export const runtime: 'bun' | 'deno' = deno ? 'deno' : 'bun'

// Bun's own cap on a declared body, kept: every route's limit is lower, and a length past it is
// refused here, before the route, with a problem body (Bun's own 413 would have none).
const LARGEST_BODY_BYTES = 128 * 1024 * 1024

function declaresTooLarge(request: Request): boolean {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  return declared > LARGEST_BODY_BYTES
}

// Seconds past the request deadline that its connection is kept, so the deadline's answer (or a
// 408 for a stalled body) is always written before the idle timer could cut the connection.
const ANSWER_MARGIN_SECONDS = 5

/**
 * Serves `handle` with the runtime's own server, `Bun.serve` or `Deno.serve`, the same way on
 * both: Elysia's `listen` would route around a handler wrapped with a deadline.
 */
export function listen(handle: Handler, options: ListenOptions): RunningServer {
  if (deno) return listenWithDeno(deno, handle, options)
  const handlingSeconds = Math.max(
    options.idleTimeoutSeconds,
    Math.ceil(options.requestTimeoutMs / 1000) + ANSWER_MARGIN_SECONDS,
  )
  const server = Bun.serve({
    port: options.port,
    hostname: options.hostname,
    // Cuts idle keep-alive connections and clients that trickle their headers in (slowloris);
    // once a request is being handled its connection gets until the deadline and a margin.
    idleTimeout: options.idleTimeoutSeconds,
    // Bun would answer a larger Content-Length itself, with no body; routes count chunked bodies.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch(request, bunServer) {
      if (declaresTooLarge(request)) {
        return problemResponse(problems.bodyTooLarge(LARGEST_BODY_BYTES), { Connection: 'close' })
      }
      const address = bunServer.requestIP(request)?.address
      if (address) rememberRemoteAddress(request, address)
      bunServer.timeout(request, handlingSeconds)
      return handle(request)
    },
  })
  options.onListen({ port: server.port ?? options.port, hostname: options.hostname })
  return {
    async stop() {
      // Not closing active connections: in-flight requests still get their answers.
      await server.stop(false)
    },
  }
}

function listenWithDeno(
  deno: DenoNamespace,
  handle: Handler,
  options: ListenOptions,
): RunningServer {
  const inFlight = new Set<Promise<Response>>()
  let draining = false
  // Deno.serve has no idle or header timeout (denoland/deno#3515): `idleTimeoutSeconds` cannot be
  // applied, and a client trickling its headers holds its connection until it goes away. Under
  // Deno, a proxy in front has to cut slow clients; bodies are still bounded by BODY_TIMEOUT_MS.
  const server = deno.serve(
    { port: options.port, hostname: options.hostname, onListen: options.onListen },
    (request, info) => {
      if (draining) return problemResponse(problems.unavailable(SHUTTING_DOWN))
      // Elysia gets no server object under Deno, so the per-address limiter would see every
      // client as the same one; the address travels with the request instead.
      if ('hostname' in info.remoteAddr) rememberRemoteAddress(request, info.remoteAddr.hostname)
      const answer = Promise.resolve(handle(request))
      const settled = () => void inFlight.delete(answer)
      inFlight.add(answer)
      answer.then(settled, settled)
      return answer
    },
  )
  return {
    async stop() {
      // Deno 2.9's `shutdown()` makes the bodies of in-flight requests unreadable (500 instead of
      // 202 for a body still arriving; denoland/deno#36809), so every handler finishes first.
      // Meanwhile new requests are turned away as they would be by a closed listener, but with
      // an answer a client can retry on.
      draining = true
      await Promise.allSettled(inFlight)
      await server.shutdown()
      await server.finished
    },
  }
}
