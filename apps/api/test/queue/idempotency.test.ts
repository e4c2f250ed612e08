/** Ingestion, end to end through HTTP: the same deployment delivered twice, and Idempotency-Key. */
import { describe, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { list } from '../support/deployment-list.ts'
import { harnessPerFile } from '../support/harness.ts'

const h = harnessPerFile()

describe('duplicates and Idempotency-Key', () => {
  test('the same deployment delivered twice is recorded once', async () => {
    const { key } = await h.createKey({ workspace: 'dupes' })
    const body = validDeployment({ deployedAt: '2026-06-01T10:00:00.123456Z' })
    expect((await h.post(body, { key })).status).toBe(202)
    await h.drain()
    expect((await h.post(body, { key })).status).toBe(202)
    expect((await h.post({ ...body, environment: 'PRODUCTION' }, { key })).status).toBe(202)
    expect(await h.drain()).toBe(2)
    expect((await list(h, key)).data).toHaveLength(1)
    expect(
      (await h.post({ ...body, deployedAt: '2026-06-01T10:00:00.123457Z' }, { key })).status,
    ).toBe(202)
    await h.drain()
    expect((await list(h, key)).data).toHaveLength(2)
  })

  test('a retried request without deployedAt but with the same Idempotency-Key is recorded once', async () => {
    const { key } = await h.createKey({ workspace: 'idem' })
    const headers = { 'idempotency-key': 'build-4711' }
    const first = await h.post(validDeployment(), { key, headers })
    const retry = await h.post(validDeployment(), { key, headers })
    const quoted = await h.post(validDeployment(), {
      key,
      headers: { 'idempotency-key': '"build-4711"' },
    })
    expect([first.status, retry.status, quoted.status]).toEqual([202, 202, 202])
    expect(await retry.text()).toBe('{"status":202}')
    expect(await h.drain()).toBe(1)
    expect((await list(h, key)).data).toHaveLength(1)
    const other = await h.post(validDeployment(), {
      key,
      headers: { 'idempotency-key': 'build-4712' },
    })
    expect(other.status).toBe(202)
    await h.drain()
    expect((await list(h, key)).data).toHaveLength(2)
  })

  test('the same Idempotency-Key with a different body is 422 and queues nothing', async () => {
    const { key } = await h.createKey({ workspace: 'idem-conflict' })
    const headers = { 'idempotency-key': 'release-1' }
    expect((await h.post(validDeployment({ version: '1' }), { key, headers })).status).toBe(202)
    const conflict = await h.post(validDeployment({ version: '2' }), { key, headers })
    expect(conflict.status).toBe(422)
    const body = await conflict.json()
    expect(body.errors).toEqual([
      { field: 'Idempotency-Key', message: 'was already used with a different request body' },
    ])
    expect(await h.drain()).toBe(1)
  })

  test('Idempotency-Key claims are per workspace', async () => {
    const one = await h.createKey({ workspace: 'idem-a' })
    const two = await h.createKey({ workspace: 'idem-b' })
    const headers = { 'idempotency-key': 'shared-key' }
    expect(
      (await h.post(validDeployment({ version: 'a' }), { key: one.key, headers })).status,
    ).toBe(202)
    expect(
      (await h.post(validDeployment({ version: 'b' }), { key: two.key, headers })).status,
    ).toBe(202)
    expect(await h.drain()).toBe(2)
  })

  test('repeats within one group commit are recognised too', async () => {
    const { key } = await h.createKey({ workspace: 'idem-burst' })
    const headers = { 'idempotency-key': 'burst' }
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => h.post(validDeployment(), { key, headers })),
    )
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(202))
    expect(await h.drain()).toBe(1)
  })

  test('an Idempotency-Key claim expires after 24 hours', async () => {
    const { key } = await h.createKey({ workspace: 'idem-expiry' })
    const headers = { 'idempotency-key': 'nightly' }
    await h.post(validDeployment({ version: 'day-1' }), { key, headers })
    await h.sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = 'nightly'`
    expect((await h.post(validDeployment({ version: 'day-2' }), { key, headers })).status).toBe(202)
    expect(await h.drain()).toBe(2)
  })

  test.each([['a'.repeat(256)], ['with space'], ['tab\there'], ['"unterminated']])(
    'an invalid Idempotency-Key (%#) is 422 naming the header',
    async (value) => {
      const response = await h.post(validDeployment(), { headers: { 'idempotency-key': value } })
      expect(response.status).toBe(422)
      const body = await response.json()
      expect(body.errors.map((error: { field: string }) => error.field)).toContain(
        'Idempotency-Key',
      )
    },
  )
})
