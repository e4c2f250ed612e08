import { expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

const h = harnessPerFile()

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
