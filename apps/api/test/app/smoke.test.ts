import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Harness, startHarness, validDeployment } from './harness.ts'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

test('a posted deployment is accepted, then recorded and listed', async () => {
  const response = await h.post(validDeployment())
  expect(response.status).toBe(202)
  expect(await response.text()).toBe('{"status":202}')
  expect(await h.drain()).toBe(1)
  const list = await h.get('/v1/deployments')
  expect(list.status).toBe(200)
  const body = await list.json()
  expect(body).toMatchObject({
    data: [{ ...validDeployment(), status: 'recorded' }],
    nextCursor: null,
  })
})
