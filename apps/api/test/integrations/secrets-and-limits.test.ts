import { expect, test } from 'bun:test'
import type { IntegrationWithSecret } from '@shiplog/schema/integration'
import { withHarness } from '../support/harness.ts'
import {
  adminKey,
  createIntegration,
  deliverGitHub,
  deliverGitLab,
} from '../support/integrations.ts'
import { sampleOf } from '../support/prometheus.ts'

// A rotated secret keeps working for the grace period and not after; a sender over its
// integration's limit is told to wait; an operator's /metrics counts every refusal by why.

const ping = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 })

test('after a rotation both secrets work during the grace period, the new one alone after it', async () => {
  for (const grace of ['3600', '0']) {
    await withHarness({ INTEGRATION_SECRET_GRACE_SECONDS: grace }, async (h) => {
      const key = await adminKey(h)
      for (const source of ['github', 'gitlab'] as const) {
        const created = await createIntegration(h, key, { source, name: `${source} ${grace}` })
        const response = await h.send('POST', `/v1/integrations/${created.id}/secret`, { key })
        expect(response.status).toBe(200)
        const rotated = (await response.json()) as IntegrationWithSecret
        expect(rotated.secret).not.toBe(created.secret)
        expect(rotated.previousSecretValidUntil !== null).toBe(grace !== '0')
        const deliver = (secret: string) =>
          source === 'github'
            ? deliverGitHub(h, { ...created, secret }, 'ping', ping)
            : deliverGitLab(h, { ...created, secret }, 'Push Hook', ping)
        expect((await deliver(rotated.secret)).status).toBeLessThan(300)
        const previous = (await deliver(created.secret)).status
        expect(grace === '0' ? previous === 401 : previous < 300).toBe(true)
        // The secret is shown in the rotation's answer only.
        const read = await (await h.get(`/v1/integrations/${created.id}`, { key })).json()
        expect(JSON.stringify(read)).not.toContain(rotated.secret)
      }
    })
  }
}, 60_000)

test('a sender over its integration’s limit gets 429 with Retry-After; another integration does not', async () => {
  await withHarness({ INTEGRATION_RATE_LIMIT_PER_MINUTE: '2' }, async (h) => {
    const key = await adminKey(h)
    const busy = await createIntegration(h, key, { source: 'github', name: 'busy' })
    const quiet = await createIntegration(h, key, { source: 'github', name: 'quiet' })
    const statuses = []
    for (let sent = 0; sent < 3; sent++) {
      statuses.push((await deliverGitHub(h, busy, 'ping', ping)).status)
    }
    expect(statuses).toEqual([200, 200, 429])
    const limited = await deliverGitHub(h, busy, 'ping', ping)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await deliverGitHub(h, quiet, 'ping', ping)).status).toBe(200)
  })
}, 60_000)

test('the API’s /metrics counts refused deliveries by source and reason, whether or not the list shows them', async () => {
  await withHarness({ INTEGRATION_RATE_LIMIT_PER_MINUTE: '30' }, async (h) => {
    const key = await adminKey(h)
    const github = await createIntegration(h, key, { source: 'github', name: 'refusals' })
    const forged = { ...github, secret: 'not-the-secret' }
    // More forgeries than the deliveries list keeps rows for (ten at once): all are counted.
    for (let sent = 0; sent < 12; sent++) {
      expect((await deliverGitHub(h, forged, 'ping', ping)).status).toBe(401)
    }
    // A raw NUL byte: no JSON carries one.
    expect((await deliverGitHub(h, github, 'ping', '{"zen": "\u0000"}')).status).toBe(400)
    expect((await deliverGitHub(h, github, 'ping', ping)).status).toBe(200)
    const scraped = (await h.api.scrape()).body
    const refused = (reason: string) =>
      sampleOf(scraped, 'shiplog_integration_deliveries_refused_total', {
        source: 'github',
        reason,
      })
    expect({ badProof: refused('bad_proof'), notJson: refused('not_json') }).toEqual({
      badProof: 12,
      notJson: 1,
    })
    expect(sampleOf(scraped, 'shiplog_integration_deliveries_refused_total')).toBe(13)
  })
}, 60_000)
