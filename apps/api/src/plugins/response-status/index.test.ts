import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { noteAnsweredOutside, sentStatus } from './index.ts'

/** An app whose after-response hook records the status `sentStatus` names for each request. */
function appObserving() {
  const seen = new Map<string, number>()
  const app = new Elysia()
    .onAfterResponse(({ request, set, responseValue }) => {
      seen.set(new URL(request.url).pathname, sentStatus({ request, set, responseValue }))
    })
    .get('/plain', () => 'ok')
    .get('/created', ({ set }) => {
      set.status = 201
      return 'made'
    })
    .get('/response', () => new Response('accepted', { status: 202 }))
  async function statusOf(request: Request): Promise<number | undefined> {
    const path = new URL(request.url).pathname
    await app.handle(request)
    for (let attempt = 0; attempt < 100 && !seen.has(path); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return seen.get(path)
  }
  return { statusOf }
}

const request = (path: string) => new Request(`http://shiplog.test${path}`)

describe('sentStatus', () => {
  test('is 200 by default, set.status when a handler set it, a Response its own', async () => {
    const { statusOf } = appObserving()
    expect(await statusOf(request('/plain'))).toBe(200)
    expect(await statusOf(request('/created'))).toBe(201)
    expect(await statusOf(request('/response'))).toBe(202)
  })

  test('is the status of an answer given outside the app (a deadline), for that request only', async () => {
    const { statusOf } = appObserving()
    const late = request('/response')
    noteAnsweredOutside(late, 503)
    expect(await statusOf(late)).toBe(503)
    expect(await statusOf(request('/created'))).toBe(201)
  })
})
