import { expect, test } from 'bun:test'
import { withDeadline } from './deadline.ts'

const never = () => new Promise<Response>(() => {})
const request = (method: string) => new Request('http://shiplog.test/v1/x', { method })

test('an answer in time passes through untouched', async () => {
  const handle = withDeadline(() => new Response('ok', { status: 201 }), 1_000)
  const response = await handle(request('GET'))
  expect(response.status).toBe(201)
  expect(await response.text()).toBe('ok')
})

test('a read past the deadline gets a 503 timeout problem, and the hook hears of it', async () => {
  const late: string[] = []
  const handle = withDeadline(never, 20, (r) => late.push(r.method))
  const response = await handle(request('GET'))
  expect(response.status).toBe(503)
  expect(response.headers.get('content-type')).toBe('application/problem+json')
  expect((await response.json()).type).toBe('/problems/timeout')
  expect(late).toEqual(['GET'])
})

test('a write past the deadline is outcome-unknown: it may still commit', async () => {
  const response = await withDeadline(never, 20)(request('POST'))
  expect(response.status).toBe(503)
  expect((await response.json()).type).toBe('/problems/outcome-unknown')
})

test('a handler that throws synchronously still rejects rather than escaping', async () => {
  const handle = withDeadline(() => {
    throw new Error('boom')
  }, 1_000)
  await expect(handle(request('GET'))).rejects.toThrow('boom')
})
