import { Elysia } from 'elysia'
import { problemResponse, problems } from '../../kernel/problems.ts'
import type { Readiness } from './readiness.ts'

/** `GET /healthz` (the process is alive) and `GET /readyz` (it can do its job). */
export function healthRoutes(readiness: Readiness) {
  return new Elysia()
    .get('/healthz', () => ({ status: 'ok' }))
    .get('/readyz', async ({ set }) => {
      const state = await readiness.check()
      if (state.ready) return { status: 'ready' }
      return problemResponse(problems.unavailable(`Not ready: ${state.reason}.`, 1), set.headers)
    })
}
