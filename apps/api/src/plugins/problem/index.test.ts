import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { problems } from '../../kernel/problems.ts'
import { problemDetails } from './index.ts'

/** An app with only the problem plugin, whose one route throws `error`. */
function appThrowing(error: unknown) {
  const reported: unknown[] = []
  const app = new Elysia()
    .use(problemDetails((unexpected) => reported.push(unexpected)))
    .onBeforeHandle(({ set }) => {
      set.headers['x-request-id'] = 'req-1'
    })
    .get('/boom', () => {
      throw error
    })
  return { app, reported }
}

async function answer(error: unknown, path = '/boom') {
  const { app, reported } = appThrowing(error)
  const response = await app.handle(new Request(`http://shiplog.test${path}`))
  return { response, body: await response.json(), reported }
}

const withCode = (code: string) => Object.assign(new Error(`postgres said ${code}`), { code })

describe('problem details', () => {
  test('an HttpProblem becomes problem+json with its status, headers, and those already set', async () => {
    const { response, body, reported } = await answer(
      problems.rateLimited(7, 'Slow down; retry after 7s.'),
    )
    expect(response.status).toBe(429)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
    expect(response.headers.get('retry-after')).toBe('7')
    expect(response.headers.get('x-request-id')).toBe('req-1')
    expect(body).toEqual({
      type: '/problems/rate-limited',
      title: 'Too Many Requests',
      status: 429,
      detail: 'Slow down; retry after 7s.',
    })
    expect(reported).toEqual([])
  })

  test('field errors are listed', async () => {
    const { response, body } = await answer(
      problems.validation([{ field: 'app', message: 'is required' }]),
    )
    expect(response.status).toBe(422)
    expect(body.errors).toEqual([{ field: 'app', message: 'is required' }])
  })

  test('an unknown path is a 404 pointing at /docs', async () => {
    const { response, body } = await answer(new Error('unused'), '/nowhere')
    expect(response.status).toBe(404)
    expect(body).toMatchObject({
      type: '/problems/not-found',
      detail: 'No such endpoint; see /docs.',
    })
  })

  test.each([
    ['a statement timeout (57014) is a 503 timeout, not a bug', '57014', '5', '/problems/timeout'],
    [
      'an unreachable database is a 503 to retry, not a bug',
      'ECONNREFUSED',
      '2',
      '/problems/unavailable',
    ],
  ])('%s', async (_, code, retryAfter, type) => {
    const { response, body, reported } = await answer(withCode(code))
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe(retryAfter)
    expect(body.type).toBe(type)
    expect(reported).toEqual([])
  })

  test('anything else is a bug: a 500 that tells nothing of it, reported once', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')")
    const { response, body, reported } = await answer(bug)
    expect(response.status).toBe(500)
    expect(body).toMatchObject({ type: '/problems/internal', status: 500 })
    expect(JSON.stringify(body)).not.toContain('undefined')
    expect(reported).toEqual([bug])
  })
})
