// The sender's name for a delivery's event and its own id of it, by source: read from headers
// (GitHub, GitLab, a binary CloudEvent) or, once the sender is proved, from the body (a
// structured or bare CDEvent, a Flux event). The id makes a redelivery a duplicate; where a
// sender has none (Flux), the key is built from what it sends (decisions §9).

import type { StoredIntegration } from '@shiplog/db/integrations/integrations'
import { receivedCDEvent } from '@shiplog/integrations/cdevents/cloud-event'
import { fluxEventName, fluxRevision } from '@shiplog/integrations/flux/event'
import { isJsonObject } from '@shiplog/integrations/mapping'
import { pagerDutyEventType } from '@shiplog/integrations/pagerduty/webhook'

export interface SenderTerms {
  event: string | null
  senderDeliveryId: string | null
  /** What makes a redelivery of this one a duplicate; undefined: the body's hash does. */
  senderKey: string | undefined
}

/** A body that is not what the source sends: refused with this, naming what is missing. */
export interface NotTheSendersBody {
  refusal: string
}

/** What the headers alone say, before the body is read. */
export function termsFromHeaders(
  source: StoredIntegration['source'],
  headers: Headers,
): SenderTerms {
  switch (source) {
    case 'github': {
      const hook = headers.get('x-github-hook-id')
      const delivery = headers.get('x-github-delivery')
      return {
        event: headers.get('x-github-event'),
        senderDeliveryId: delivery,
        // One event sent to two hooks carries the same GUID: the hook's id tells them apart.
        senderKey: delivery === null ? undefined : `github:${hook ?? ''}:${delivery}`,
      }
    }
    case 'gitlab': {
      const key = headers.get('idempotency-key')
      return {
        event: headers.get('x-gitlab-event'),
        senderDeliveryId: key ?? headers.get('x-gitlab-event-uuid'),
        // GitLab keeps Idempotency-Key across its retries; older GitLab sends none.
        senderKey: key === null ? undefined : `gitlab:${key}`,
      }
    }
    default:
      return {
        event: headers.get('ce-type'),
        senderDeliveryId: headers.get('ce-id'),
        senderKey: undefined,
      }
  }
}

/** The header that names the event, for a refusal that it is missing. */
export const EVENT_HEADER: Partial<Record<StoredIntegration['source'], string>> = {
  github: 'X-GitHub-Event',
  gitlab: 'X-Gitlab-Event',
}

/** What the body adds, for the sources that say it there; `headers` as read before. */
export function termsFromBody(
  source: StoredIntegration['source'],
  headers: Headers,
  bytes: Uint8Array,
  fromHeaders: SenderTerms,
): SenderTerms | NotTheSendersBody {
  if (source === 'github' || source === 'gitlab') return fromHeaders
  let body: unknown
  try {
    body = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    return { refusal: 'the body is not valid JSON' }
  }
  if (source === 'alertmanager' || source === 'pagerduty' || source === 'opsgenie') {
    return alertingTerms(source, headers, body)
  }
  if (source === 'flux') {
    const event = fluxEventName(body)
    if (event === undefined) {
      return { refusal: 'not a Flux event: it lacks involvedObject.kind or reason' }
    }
    const uid = (body as { involvedObject?: { uid?: unknown } }).involvedObject?.uid
    const revision = fluxRevision({ body, headers })
    return {
      event,
      senderDeliveryId: null,
      // Flux gives an event no id, and sends a reconciliation of one revision more than once.
      senderKey:
        typeof uid === 'string' && revision !== undefined
          ? `flux:${uid}:${event}:${revision}`
          : undefined,
    }
  }
  const received = receivedCDEvent({ body, headers })
  if ('reason' in received) return { refusal: `not a CDEvent: ${received.reason}` }
  return {
    event: received.type,
    senderDeliveryId: received.id ?? null,
    // A CloudEvent's id is unique within its source (CloudEvents 1.0, "id").
    senderKey:
      received.id === undefined ? undefined : `cdevents:${received.source ?? ''}:${received.id}`,
  }
}

/**
 * An alerting tool's event: Alertmanager's group status, PagerDuty's event type (its
 * X-Webhook-Id, kept across retries, makes a retry a duplicate), Opsgenie's action. Alertmanager
 * and Opsgenie give a delivery no id: the body's hash makes a repeat a duplicate.
 */
function alertingTerms(
  source: 'alertmanager' | 'pagerduty' | 'opsgenie',
  headers: Headers,
  body: unknown,
): SenderTerms | NotTheSendersBody {
  const object = isJsonObject(body) ? body : {}
  if (source === 'pagerduty') {
    const event = pagerDutyEventType(body)
    if (event === undefined)
      return { refusal: 'not a PagerDuty webhook (v3): it lacks event.event_type' }
    const delivery = headers.get('x-webhook-id')
    return {
      event,
      senderDeliveryId: delivery,
      senderKey: delivery === null ? undefined : `pagerduty:${delivery}`,
    }
  }
  const event = source === 'alertmanager' ? object.status : object.action
  if (typeof event !== 'string' || !event) {
    return {
      refusal:
        source === 'alertmanager'
          ? 'not an Alertmanager notification: it lacks status'
          : 'not an Opsgenie webhook: it lacks action',
    }
  }
  return { event, senderDeliveryId: null, senderKey: undefined }
}
