import type { LogLine } from '@shiplog/ops-http/log'
import { Elysia } from 'elysia'
import { sentStatus } from '../response-status/index.ts'

interface RequestInfo {
  id: string
  startedAt: number
  workspace?: string
}

const requests = new WeakMap<Request, RequestInfo>()
const REQUEST_ID = /^[\w.:-]{1,128}$/

// Unique per process start plus a counter: as good as a random id for tracing, far cheaper.
const bootId = Date.now().toString(36)
let sequence = 0
const nextRequestId = () => `${bootId}-${(++sequence).toString(36)}`

/** Lets later stages (auth) add what they learned to the request's log line. */
export function annotateRequest(request: Request, fields: { workspace: string }): void {
  const info = requests.get(request)
  if (info) info.workspace = fields.workspace
}

/**
 * Gives every request an id (the caller's `X-Request-Id` when it is sane) echoed in the response,
 * and writes one JSON line per request: method, path, status, duration, workspace, request id.
 * Never the Authorization header, the body or the query string (keys must not reach logs).
 */
export function requestLog(write: LogLine | undefined) {
  const plugin = new Elysia({ name: 'request-log' }).onRequest(({ request, set }) => {
    const offered = request.headers.get('x-request-id')
    const id = offered && REQUEST_ID.test(offered) ? offered : nextRequestId()
    requests.set(request, { id, startedAt: performance.now() })
    set.headers['x-request-id'] = id
  })
  if (!write) return plugin
  return plugin.onAfterResponse({ as: 'global' }, ({ request, path, set, responseValue }) => {
    const info = requests.get(request)
    if (!info) return
    write({
      time: new Date().toISOString(),
      level: 'info',
      msg: 'request',
      method: request.method,
      path,
      status: sentStatus({ request, set, responseValue }),
      durationMs: Math.round((performance.now() - info.startedAt) * 100) / 100,
      workspace: info.workspace ?? null,
      requestId: info.id,
    })
  })
}
