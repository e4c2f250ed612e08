/** Reads, end to end through HTTP: the receipt a 202 points to, from queued to recorded or failed. */
import { describe, expect, test } from 'bun:test'
import { refuseVersion, waitFor } from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { readSuite } from '../support/read-suite.ts'

const r = readSuite()
const { getJson, postDeployment } = r

describe('receipts', () => {
  test('the 202 carries a Location that answers queued, then recorded', async () => {
    const location = await postDeployment(
      validDeployment({ app: 'Receipt-App', environment: 'Receipt-Env', version: 'r1' }),
    )
    const queued = await getJson(location)
    expect(queued.status).toBe(200)
    expect(queued.body).toMatchObject({
      id: location.split('/').at(-1),
      status: 'queued',
      app: 'Receipt-App',
      version: 'r1',
      recordedAt: null,
      failure: null,
    })
    await r.h.drain()
    const recorded = await getJson(location)
    expect(recorded.body).toMatchObject({
      status: 'recorded',
      app: 'Receipt-App',
      duplicateOf: null,
    })
    expect(Date.parse(recorded.body.recordedAt)).toBeGreaterThan(0)
  })

  test('a delivery that repeats a recorded deployment keeps its receipt, naming the original', async () => {
    const body = validDeployment({
      app: 'twice',
      version: 'dup',
      deployedAt: '2026-03-03T03:03:03Z',
    })
    const first = await postDeployment(body)
    await r.h.drain()
    const second = await postDeployment(body)
    await r.h.drain()
    expect(second).not.toBe(first)
    const receipt = await getJson(second)
    expect(receipt.body).toMatchObject({
      status: 'recorded',
      duplicateOf: first.split('/').at(-1),
      version: 'dup',
    })
  })

  test('a repeat with the same Idempotency-Key and body gets the same Location', async () => {
    const body = validDeployment({ app: 'idem-receipt' })
    const first = await postDeployment(body, { 'idempotency-key': 'release-7' })
    const again = await postDeployment(body, { 'idempotency-key': 'release-7' })
    expect(again).toBe(first)
    const conflict = await r.h.post(validDeployment({ app: 'other' }), {
      key: r.key,
      headers: { 'idempotency-key': 'release-7' },
    })
    expect(conflict.status).toBe(422)
    expect(conflict.headers.get('location')).toBeNull()
  })

  test('an id of another workspace is 404; a malformed id is 422', async () => {
    const location = await postDeployment(validDeployment({ app: 'private' }))
    expect((await getJson(location, r.otherKey)).status).toBe(404)
    expect((await getJson('/v1/deployments/0190d7a6-0000-7000-8000-000000000000')).status).toBe(404)
    const malformed = await getJson('/v1/deployments/not-an-id')
    expect(malformed.status).toBe(422)
    expect(malformed.body.errors[0].field).toBe('id')
  })

  test('a deployment that fails every attempt is reported failed, with the reason', async () => {
    const allowDoomed = await refuseVersion(r.h.sql, 'doomed', 'doomed by policy')
    try {
      const location = await postDeployment(validDeployment({ app: 'fragile', version: 'doomed' }))
      await r.h.drain()
      expect((await getJson(location)).body.status).toBe('queued')
      r.h.worker.consumer.start()
      await waitFor(
        async () => (await getJson(location)).body.status === 'failed',
        'the deployment to fail',
        20_000,
      )
      await r.h.worker.consumer.stop()
      const failed = await getJson(location)
      expect(failed.body).toMatchObject({ status: 'failed', app: 'fragile', recordedAt: null })
      expect(failed.body.failure).toMatchObject({ reason: 'doomed by policy', attempts: 3 })
      const listed = await getJson('/v1/deployments?status=failed')
      expect(listed.body.data.map((item: { id: string }) => item.id)).toContain(
        location.split('/').at(-1),
      )
      expect((await getJson('/v1/deployments?status=failed', r.otherKey)).body.data).toEqual([])
    } finally {
      await allowDoomed()
    }
  }, 30_000)
})
