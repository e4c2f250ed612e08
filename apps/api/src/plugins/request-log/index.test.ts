import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { problems } from '../../kernel/problems.ts'
import { problemDetails } from '../problem/index.ts'
import { annotateRequest, requestLog } from './index.ts'

/** An app with the request log (and the problem plugin, for an error's status); its lines. */
function appLogging() {
  const lines: Record<string, unknown>[] = []
  const written = Promise.withResolvers<void>()
  const app = new Elysia()
    .use(
      requestLog((line) => {
        lines.push(line)
        written.resolve()
      }),
    )
    .use(problemDetails(() => {}))
    .get('/items/:id', ({ request }) => {
      annotateRequest(request, { workspace: 'acme' })
      return { ok: true }
    })
    .get('/missing', () => {
      throw problems.notFound('Not here.')
    })
  return { app, lines, written: written.promise }
}

describe('request log', () => {
  test('writes one JSON line per request: method, path, status, duration, workspace, request id', async () => {
    const { app, lines, written } = appLogging()
    const response = await app.handle(new Request('http://shiplog.test/items/42'))
    await written
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/items/42',
      status: 200,
      workspace: 'acme',
      requestId: response.headers.get('x-request-id'),
    })
    expect(lines[0]?.durationMs).toBeNumber()
    expect(JSON.parse(JSON.stringify(lines[0]))).toEqual(lines[0])
  })

  test('logs the status an error was answered with', async () => {
    const { app, lines, written } = appLogging()
    expect((await app.handle(new Request('http://shiplog.test/missing'))).status).toBe(404)
    await written
    expect(lines[0]).toMatchObject({ path: '/missing', status: 404, workspace: null })
  })

  test("echoes the caller's X-Request-Id when sane, and replaces one that is not", async () => {
    const { app } = appLogging()
    const echoed = await app.handle(
      new Request('http://shiplog.test/items/1', {
        headers: { 'x-request-id': 'ci-run-7:step.2' },
      }),
    )
    expect(echoed.headers.get('x-request-id')).toBe('ci-run-7:step.2')
    for (const offered of ['two words', 'x'.repeat(129), '<script>']) {
      const replaced = await app.handle(
        new Request('http://shiplog.test/items/1', { headers: { 'x-request-id': offered } }),
      )
      const id = replaced.headers.get('x-request-id')
      expect(id).toMatch(/^[\w.:-]{1,128}$/)
      expect(id).not.toBe(offered)
    }
  })

  test('never logs the Authorization header or the query string', async () => {
    const { app, lines, written } = appLogging()
    await app.handle(
      new Request('http://shiplog.test/items/1?token=secret-in-query', {
        headers: { authorization: 'Bearer shiplog_secret-in-header' },
      }),
    )
    await written
    const logged = JSON.stringify(lines)
    expect(logged).not.toContain('secret')
    expect(lines[0]?.path).toBe('/items/1')
  })

  test('without a writer, still gives every response an id', async () => {
    const app = new Elysia().use(requestLog(undefined)).get('/', () => 'ok')
    const first = await app.handle(new Request('http://shiplog.test/'))
    const second = await app.handle(new Request('http://shiplog.test/'))
    expect(first.headers.get('x-request-id')).toBeTruthy()
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
  })
})
