// The probes, and what an unknown path answers.
import { describe, expect, test } from 'bun:test'
import { harnessPerFile } from '../support/harness.ts'

const h = harnessPerFile()

describe('health', () => {
  test('/healthz and /readyz answer 200 when Postgres is migrated', async () => {
    expect((await h.get('/healthz', { key: null })).status).toBe(200)
    const ready = await h.get('/readyz', { key: null })
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready' })
  })

  test('an unknown path is a 404 problem', async () => {
    const response = await h.get('/v2/nothing', { key: null })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
  })
})
