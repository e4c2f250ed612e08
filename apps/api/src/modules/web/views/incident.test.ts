import { expect, test } from 'bun:test'
import type { Incident } from '@shiplog/schema'
import { incidentPage } from './incident.ts'

// An incident's page says who reported it; the sender's link is followed only when it is an
// http(s) address, since the sender wrote it.

const incident = (fields: Partial<Incident>): Incident => ({
  id: '01890a5d-ac96-774b-bcce-b302099a8057',
  status: 'open',
  environment: 'production',
  app: 'checkout',
  title: 'Checkout answers 5xx',
  startedAt: '2026-10-01T12:10:00.000Z',
  resolvedAt: null,
  causeDeploymentId: null,
  fixedByDeploymentId: null,
  source: null,
  senderUrl: null,
  createdAt: '2026-10-01T12:10:01.000Z',
  updatedAt: '2026-10-01T12:10:01.000Z',
  ...fields,
})
const page = (fields: Partial<Incident>) =>
  String(
    incidentPage({
      incident: incident(fields),
      history: [],
      mayWrite: false,
      csrfToken: 'token',
      principal: {} as never,
    }).body,
  )

test('a person’s incident says so; a tool’s names the tool and links its page', () => {
  expect(page({})).toContain('<dt>Reported by</dt><dd>a person</dd>')
  expect(
    page({ source: 'pagerduty', senderUrl: 'https://acme.pagerduty.com/incidents/Q1' }),
  ).toContain(
    'PagerDuty (<a href="https://acme.pagerduty.com/incidents/Q1" rel="noopener noreferrer">its page</a>)',
  )
})

test('a link the sender wrote that is not http(s) stays text, and quotes stay inside the attribute', () => {
  const scripted = page({ source: 'alertmanager', senderUrl: 'javascript:alert(1)' })
  expect(scripted).toContain('<dd>Alertmanager</dd>')
  expect(scripted).not.toContain('javascript:')
  const quoted = page({ source: 'alertmanager', senderUrl: 'https://x.example/"><script>' })
  expect(quoted).not.toContain('<script>')
  expect(quoted).toContain('href="https://x.example/&quot;&gt;&lt;script&gt;"')
})
