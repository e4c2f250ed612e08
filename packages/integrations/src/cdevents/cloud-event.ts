// A CDEvent as it arrives over HTTP (CloudEvents' HTTP binding): structured (a CloudEvent whose
// `data` is the CDEvent, `Content-Type: application/cloudevents+json`), binary (the CloudEvent's
// attributes as `ce-*` headers, the CDEvent as the body), or a bare CDEvent posted as JSON.

import { type Delivery, isJsonObject, valueAt } from '../mapping.ts'

/** A CDEvent and what identifies it: its type, and its id within its source. */
export interface ReceivedCDEvent {
  mode: 'structured' | 'binary' | 'bare'
  cdevent: Record<string, unknown>
  /** `dev.cdevents.<subject>.<predicate>.<version>` */
  type: string
  id: string | undefined
  source: string | undefined
}

const text = (value: unknown) =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined

/** The CDEvent a delivery carries, or why it carries none. */
export function receivedCDEvent(delivery: Delivery): ReceivedCDEvent | { reason: string } {
  const { body, headers } = delivery
  if (!isJsonObject(body)) return { reason: 'the body is not a JSON object' }
  if (headers.has('ce-specversion')) {
    const type = text(headers.get('ce-type')) ?? valueAt(delivery, 'context.type')
    if (type === undefined) return { reason: 'a binary CloudEvent without ce-type' }
    return {
      mode: 'binary',
      cdevent: body,
      type,
      id: text(headers.get('ce-id')) ?? valueAt(delivery, 'context.id'),
      source: text(headers.get('ce-source')) ?? valueAt(delivery, 'context.source'),
    }
  }
  if (typeof body.specversion === 'string' && !isJsonObject(body.context)) {
    if (!isJsonObject(body.data)) {
      return {
        reason:
          'a structured CloudEvent whose data is not a CDEvent object (data_base64 is not read: send JSON data)',
      }
    }
    const type = text(body.type) ?? text((body.data.context as Record<string, unknown>)?.type)
    if (type === undefined) return { reason: 'a structured CloudEvent without type' }
    return {
      mode: 'structured',
      cdevent: body.data,
      type,
      id: text(body.id),
      source: text(body.source),
    }
  }
  if (isJsonObject(body.context)) {
    const type = text(body.context.type)
    if (type === undefined) return { reason: 'a CDEvent without context.type' }
    return {
      mode: 'bare',
      cdevent: body,
      type,
      id: text(body.context.id),
      source: text(body.context.source),
    }
  }
  return {
    reason:
      'neither a CloudEvent (specversion and data, or ce-* headers) nor a CDEvent (context and subject)',
  }
}

const CDEVENT_TYPE = /^dev\.cdevents\.([a-z]+)\.([a-z]+)\.(\d+)\.(\d+)\.(\d+)(?:-[0-9a-z.-]+)?$/

/** `dev.cdevents.service.deployed.0.3.0` as its subject, predicate and major version. */
export function parseCDEventType(
  type: string,
): { subject: string; predicate: string; major: number } | undefined {
  const match = CDEVENT_TYPE.exec(type)
  if (!match) return undefined
  return { subject: match[1] as string, predicate: match[2] as string, major: Number(match[3]) }
}
