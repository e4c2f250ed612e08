import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { outcomeOfAlertmanager } from './alertmanager/notification.ts'
import { instantOf } from './incident.ts'
import type { Delivery } from './mapping.ts'
import { outcomeOfOpsgenie } from './opsgenie/webhook.ts'
import { outcomeOfPagerDuty } from './pagerduty/webhook.ts'

// The alerting tools' real bodies (packages/integrations/fixtures/*/SOURCE.md names where each
// was captured) read as incidents.

const FIXTURES = join(import.meta.dir, '..', 'fixtures')
const bodiesIn = (folder: string) =>
  readdirSync(join(FIXTURES, folder))
    .filter((name) => name.endsWith('.json') && !name.includes('signature'))
    .map((name) => ({ name, text: readFileSync(join(FIXTURES, folder, name), 'utf8') }))
const deliveryOf = (text: string): Delivery => ({ body: JSON.parse(text), headers: new Headers() })

describe('Alertmanager', () => {
  const fixtures = bodiesIn('alertmanager')
  test('there are real notifications, firing and resolved', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(8)
  })

  for (const { name, text } of fixtures) {
    test(`${name}: its group, every listed alert with its start, resolved only when the group is`, () => {
      const body = JSON.parse(text)
      const outcome = outcomeOfAlertmanager(deliveryOf(text), { environment: 'production' })
      if (outcome.outcome !== 'alert-group') throw new Error(JSON.stringify(outcome))
      expect(outcome.subject.senderKey).toBe(body.groupKey)
      expect(outcome.subject.environment).toBe('production')
      expect(outcome.alerts.map((alert) => alert.startsAt)).toEqual(
        body.alerts.map((alert: { startsAt: string }) => instantOf(alert.startsAt)),
      )
      for (const [index, alert] of outcome.alerts.entries()) {
        const sent = body.alerts[index]
        expect(alert.endsAt === null).toBe(sent.status !== 'resolved')
        if (alert.endsAt !== null) expect(alert.endsAt >= alert.startsAt).toBe(true)
      }
      expect(outcome.groupResolvedAt === null).toBe(body.status !== 'resolved')
      expect(outcome.subject.url).toBe(body.alerts[0].generatorURL || body.externalURL)
    })
  }

  test('the environment and application come from the group’s labels by default; without one it is ignored, saying why', () => {
    const { text } = fixtures.find(({ name }) => name === 'zulip-firing-two-alerts.json') ?? {
      text: '',
    }
    const body = JSON.parse(text)
    const labelled = {
      ...body,
      commonLabels: { ...body.commonLabels, env: 'staging', service: 'checkout' },
    }
    expect(outcomeOfAlertmanager({ body: labelled, headers: new Headers() }, {})).toMatchObject({
      outcome: 'alert-group',
      subject: { environment: 'staging', app: 'checkout' },
    })
    const bare = { ...body, commonLabels: {}, groupLabels: {} }
    expect(outcomeOfAlertmanager({ body: bare, headers: new Headers() }, {})).toEqual({
      outcome: 'ignored',
      reason: expect.stringContaining('no environment'),
    })
    // A mapping names other labels.
    expect(
      outcomeOfAlertmanager(
        { body: labelled, headers: new Headers() },
        { environment: { from: 'labels.service' } },
      ),
    ).toMatchObject({ subject: { environment: 'checkout' } })
  })

  test('times keep nine fractional digits to the microsecond, and their offsets', () => {
    expect(instantOf('2026-10-01T14:00:00.123456789+02:00')).toBe('2026-10-01T12:00:00.123456Z')
    expect(instantOf('2026-10-01T12:00:00Z')).toBe('2026-10-01T12:00:00.000000Z')
    expect(instantOf('yesterday')).toBeUndefined()
  })
})

describe('PagerDuty', () => {
  const read = (name: string) =>
    outcomeOfPagerDuty(deliveryOf(readFileSync(join(FIXTURES, 'pagerduty', name), 'utf8')), {
      environment: 'production',
    })

  test.each([
    ['zulip-incident-triggered.json', 'open'],
    ['zulip-incident-resolved.json', 'resolved'],
    ['zulip-incident-reopened.json', 'open'],
  ] as const)('%s: the incident, %s at its occurred_at, with its page', (name, state) => {
    const body = JSON.parse(readFileSync(join(FIXTURES, 'pagerduty', name), 'utf8'))
    expect(read(name)).toEqual({
      outcome: 'incident',
      subject: {
        senderKey: body.event.data.id,
        environment: 'production',
        app: body.event.data.service.summary,
        title: body.event.data.title,
        url: body.event.data.html_url,
      },
      startedAt: instantOf(body.event.data.created_at ?? body.event.occurred_at) as string,
      state,
      at: instantOf(body.event.occurred_at) as string,
    })
  })

  test.each(['zulip-incident-acknowledged.json', 'developer-docs-incident-priority-updated.json'])(
    '%s changes nothing, saying so',
    (name) => {
      expect(read(name)).toEqual({
        outcome: 'ignored',
        reason: expect.stringContaining('changes no incident'),
      })
    },
  )

  test('without an environment in the mapping it is ignored: PagerDuty has none', () => {
    const text = readFileSync(join(FIXTURES, 'pagerduty', 'zulip-incident-triggered.json'), 'utf8')
    expect(outcomeOfPagerDuty(deliveryOf(text), {})).toEqual({
      outcome: 'ignored',
      reason: expect.stringContaining('PagerDuty has none'),
    })
  })
})

describe('Opsgenie', () => {
  const read = (name: string, mapping = {}) =>
    outcomeOfOpsgenie(deliveryOf(readFileSync(join(FIXTURES, 'opsgenie', name), 'utf8')), {
      environment: 'production',
      ...mapping,
    })

  test('Create opens at createdAt (milliseconds), Close resolves at updatedAt (nanoseconds)', () => {
    const created = JSON.parse(
      readFileSync(join(FIXTURES, 'opsgenie', 'zulip-create.json'), 'utf8'),
    )
    expect(read('zulip-create.json')).toMatchObject({
      outcome: 'incident',
      subject: { senderKey: created.alert.alertId, title: created.alert.message },
      state: 'open',
      startedAt: instantOf(created.alert.createdAt),
    })
    const closed = JSON.parse(readFileSync(join(FIXTURES, 'opsgenie', 'zulip-close.json'), 'utf8'))
    expect(read('zulip-close.json')).toMatchObject({
      outcome: 'incident',
      subject: { senderKey: closed.alert.alertId },
      state: 'resolved',
      startedAt: '2015-01-05T10:03:11.104000Z',
      at: '2015-01-05T10:06:14.669000Z',
    })
    expect(read('relay-create.json')).toMatchObject({ outcome: 'incident', state: 'open' })
  })

  test.each(['zulip-acknowledge.json', 'watchops-addnote.json'])(
    '%s changes nothing, saying so',
    (name) => {
      expect(read(name)).toEqual({
        outcome: 'ignored',
        reason: expect.stringContaining('changes no incident'),
      })
    },
  )
})
