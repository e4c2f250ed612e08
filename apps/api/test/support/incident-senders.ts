// Posting as the alerting tools do: Alertmanager with its receiver's bearer or Basic password,
// PagerDuty signing the raw body (HMAC-SHA256, `v1=`), Opsgenie with a custom Authorization
// header. Bodies are sent as the bytes given, never re-serialised.
import { createHmac } from 'node:crypto'
import type { Harness } from './harness.ts'
import { hookPathOf } from './integrations.ts'

type Hook = { url: string; secret: string }

/** Alertmanager's webhook: `Authorization: Bearer`, or Basic with the secret as password. */
export function deliverAlertmanager(
  h: Harness,
  integration: Hook,
  body: string,
  options: { basic?: boolean; secret?: string } = {},
): Promise<Response> {
  const secret = options.secret ?? integration.secret
  const authorization = options.basic
    ? `Basic ${btoa(`alertmanager:${secret}`)}`
    : `Bearer ${secret}`
  return h.send('POST', hookPathOf(integration), {
    key: null,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Alertmanager/0.25.0',
      authorization,
    },
    rawBody: body,
  })
}

/** `v1=` and the hex HMAC-SHA256 of the body, as PagerDuty signs. */
export const pagerDutySignature = (secret: string, body: string) =>
  `v1=${createHmac('sha256', secret).update(body).digest('hex')}`

/** PagerDuty's webhook (v3): signed, with its delivery id in X-Webhook-Id. */
export function deliverPagerDuty(
  h: Harness,
  integration: Hook,
  body: string,
  options: { webhookId?: string; signature?: string } = {},
): Promise<Response> {
  return h.send('POST', hookPathOf(integration), {
    key: null,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'PagerDuty-Webhook/V3.0',
      'x-webhook-id': options.webhookId ?? crypto.randomUUID(),
      'x-webhook-subscription': 'PSUBSCR',
      'x-pagerduty-signature': options.signature ?? pagerDutySignature(integration.secret, body),
    },
    rawBody: body,
  })
}

/** Opsgenie's webhook with `Authorization: Bearer <secret>` as a custom header. */
export function deliverOpsgenie(h: Harness, integration: Hook, body: string): Promise<Response> {
  return h.send('POST', hookPathOf(integration), {
    key: null,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${integration.secret}` },
    rawBody: body,
  })
}
