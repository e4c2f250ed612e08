/**
 * Ingestion, end to end through HTTP: what a client gets when the queue or the body fails it.
 * Each test starts a harness of its own.
 */
import { describe, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { withHarness } from '../support/harness.ts'

describe('when the queue cannot commit', () => {
  test('the answer is 503 with Retry-After, never 202, and nothing is recorded', async () => {
    await withHarness({}, async (broken) => {
      const { key } = await broken.createKey({ workspace: 'outage' })
      // Warm the key and rate-limit caches, then make every queue commit fail.
      expect((await broken.post(validDeployment({ version: 'warm' }), { key })).status).toBe(202)
      await broken.sql`
        create function fail_inserts() returns trigger language plpgsql as $$
        begin raise exception 'simulated outage'; end $$`
      await broken.sql`
        create trigger outage before insert on idempotency_keys for each row execute function fail_inserts()`
      const statuses = await Promise.all(
        Array.from({ length: 5 }, (_, index) =>
          broken.post(validDeployment({ version: `lost-${index}` }), {
            key,
            headers: { 'idempotency-key': `outage-${index}` },
          }),
        ),
      )
      for (const response of statuses) {
        expect(response.status).toBe(503)
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
        expect(response.headers.get('content-type')).toBe('application/problem+json')
      }
      expect(await broken.drain()).toBe(1)
      expect(await broken.deploymentCount()).toBe(1)
    })
  })
})

describe('slow bodies', () => {
  test('a body that trickles in slower than BODY_TIMEOUT_MS gets 408, and nothing is queued', async () => {
    await withHarness({ BODY_TIMEOUT_MS: '300' }, async (slow) => {
      const encoder = new TextEncoder()
      let timer: ReturnType<typeof setInterval> | undefined
      const trickle = new ReadableStream<Uint8Array>({
        start(controller) {
          timer = setInterval(() => controller.enqueue(encoder.encode(' ')), 100)
        },
        cancel() {
          clearInterval(timer)
        },
      })
      const startedAt = Date.now()
      const response = await slow.post(undefined, {
        headers: { 'content-type': 'application/json' },
        rawBody: trickle,
      })
      clearInterval(timer)
      expect(response.status).toBe(408)
      expect(response.headers.get('content-type')).toBe('application/problem+json')
      expect(Date.now() - startedAt).toBeLessThan(2_000)
      expect(await slow.drain()).toBe(0)
    })
  })
})
