// The receivers: where GitHub, GitLab, Argo CD, Flux and CDEvents senders post deliveries (`POST /hooks/{id}`). No API key: the
// sender proves itself with its own mechanism (credentials.ts), checked on the bytes as they came
// before anything else reads them. A proved delivery is stored as it came and answered `202`; the
// worker does the work (decisions §9). Every answer but a 202 is a problem a platform engineer can
// act on, and each refusal of a known integration is kept in its deliveries list.

import { isUtf8 } from 'node:buffer'
import type { Sql } from '@shiplog/db/client'
import {
  type ReceivedDelivery,
  type StoredDelivery,
  storeDeliveries,
  storeRefusedDelivery,
} from '@shiplog/db/integrations/deliveries'
import { GroupCommit } from '@shiplog/db/queue'
import { PING } from '@shiplog/integrations/interpret'
import { Elysia } from 'elysia'
import { HttpProblem, problems } from '../../kernel/problems.ts'
import { AddressLimiter } from '../../plugins/rate-limit/address-limiter.ts'
import { isJsonContentType, readBounded } from '../../route-table/json-body.ts'
import { PROOF, provesSecret } from './credentials.ts'
import type { IntegrationDirectory } from './directory.ts'
import type { Sealer } from './sealing.ts'
import { EVENT_HEADER, termsFromBody, termsFromHeaders } from './sender-terms.ts'

/** Where a sender posts: the path of an integration's URL. */
export const HOOK_PATH = '/hooks/:id'
export const hookPath = (id: string) => `/hooks/${id}`

/** What the receivers need. */
export interface ReceiverDeps {
  sql: Sql
  directory: IntegrationDirectory
  sealer: Sealer | undefined
  /** Per integration, on this replica. */
  limiter: AddressLimiter
  maxBodyBytes: number
  bodyTimeoutMs: number
  /** Told of each refusal, for the metrics (shiplog_integration_deliveries_refused_total). */
  refused?: (source: string, reason: RefusalReason) => void
}

/** Why a receiver refused a delivery, as a metric's label. */
export type RefusalReason =
  | 'bad_proof'
  | 'rate_limited'
  | 'body_too_large'
  | 'not_json'
  | 'no_event'
  | 'not_an_event'

// Headers never stored with a delivery: they carry the secret, or prove nothing a mapping needs.
const UNSTORED_HEADERS = new Set([
  'authorization',
  'x-signature',
  'cookie',
  'x-gitlab-token',
  'x-hub-signature',
  'x-hub-signature-256',
])

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

const bounded = (text: string | null, length: number) =>
  text === null ? null : [...text].slice(0, length).join('')

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

// A group's insert takes long enough (its bodies) that a third may start while two run, and
// short enough that 1 ms more of gathering pays off; more groups at once gained nothing, and each
// holds a connection of the pool (docs/benchmarks.md, receivers).
const STORE_GROUPS = { maxBatchSize: 100, maxWaitMs: 1, maxInFlight: 3 } as const

/** The receiver: one handler for every source. */
export class Receiver {
  private readonly store: GroupCommit<ReceivedDelivery, StoredDelivery>

  constructor(private readonly deps: ReceiverDeps) {
    this.store = new GroupCommit((items) => storeDeliveries(deps.sql, items), STORE_GROUPS)
  }

  // Whoever floods a URL with forgeries gets a burst of ten rows in its list, then one a second
  // (enough to say why), not one per request.
  private readonly refusalsListed = new AddressLimiter({ capacity: 10, perMinute: 60 })

  private refusalShown(integrationId: string): boolean {
    return this.refusalsListed.take(integrationId).allowed
  }

  /** Lets every stored delivery get its answer (shutdown). */
  whenIdle(): Promise<void> {
    return this.store.whenIdle()
  }

  async receive(request: Request, id: string, receivedAt: Date): Promise<Response> {
    const integration = UUID.test(id) ? await this.deps.directory.find(id) : undefined
    if (!integration) {
      throw problems.notFound(
        'No integration has this URL: it was deleted, or the URL was copied wrong. Copy it again from the integration (GET /v1/integrations or the dashboard).',
      )
    }
    const decision = this.deps.limiter.take(integration.id)
    if (!decision.allowed) {
      this.deps.refused?.(integration.source, 'rate_limited')
      throw problems.rateLimited(
        Math.max(1, Math.ceil(decision.retryAfterSeconds ?? 1)),
        'This integration sent more deliveries than its limit (INTEGRATION_RATE_LIMIT_PER_MINUTE); retry after Retry-After.',
      )
    }
    const headers = request.headers
    let terms = termsFromHeaders(integration.source, headers)
    const refuse = async (problem: HttpProblem, reason: string, counted: RefusalReason) => {
      this.deps.refused?.(integration.source, counted)
      if (!this.refusalShown(integration.id)) return problem
      await storeRefusedDelivery(this.deps.sql, {
        integrationId: integration.id,
        workspaceId: integration.workspaceId,
        receivedAt,
        event: bounded(terms.event, 100) ?? 'unknown',
        senderDeliveryId: bounded(terms.senderDeliveryId, 200),
        reason,
      })
      return problem
    }
    const limits = { maxBytes: this.deps.maxBodyBytes, timeoutMs: this.deps.bodyTimeoutMs }
    const declared = Number(headers.get('content-length') ?? Number.NaN)
    const tooLarge = () =>
      refuse(
        new HttpProblem(
          413,
          'body-too-large',
          'Content Too Large',
          `The delivery is larger than ${limits.maxBytes} bytes (INTEGRATION_BODY_MAX_BYTES); it was not stored.`,
        ),
        `body too large: over ${limits.maxBytes} bytes`,
        'body_too_large',
      )
    if (declared > limits.maxBytes) throw await tooLarge()
    let bytes: Uint8Array<ArrayBuffer>
    try {
      bytes = new Uint8Array(await readBounded(request, limits))
    } catch (error) {
      if (error instanceof HttpProblem && error.status === 413) throw await tooLarge()
      if (error instanceof HttpProblem) throw error
      throw problems.bodyUnreadable()
    }
    if (!(await provesSecret(integration, headers, bytes, this.deps.sealer, receivedAt))) {
      const mechanism = PROOF[integration.source]
      throw await refuse(
        problems.unauthorized(
          `${mechanism}: check the secret set on the hook (rotate it here if it was lost).`,
        ),
        `bad signature: ${mechanism}`,
        'bad_proof',
      )
    }
    const header = EVENT_HEADER[integration.source]
    if (header !== undefined && terms.event === null) {
      throw await refuse(
        new HttpProblem(400, 'event-unknown', 'Bad Request', `${header} is missing.`),
        `no event: ${header} is missing`,
        'no_event',
      )
    }
    // The worker parses the body: here it need only look like JSON's bytes, UTF-8 with no raw NUL
    // (JSON writes \u0000), so a form or a binary body is refused while the sender can see why.
    if (!isJsonContentType(headers.get('content-type')) || !isUtf8(bytes) || bytes.includes(0)) {
      throw await refuse(
        new HttpProblem(
          400,
          'body-not-json',
          'Bad Request',
          'The delivery is not JSON: set the hook’s content type to application/json.',
        ),
        'the body is not JSON (is the hook’s content type application/x-www-form-urlencoded?)',
        'not_json',
      )
    }
    const fromBody = termsFromBody(integration.source, headers, bytes, terms)
    if ('refusal' in fromBody) {
      throw await refuse(
        new HttpProblem(400, 'not-an-event', 'Bad Request', `The delivery is ${fromBody.refusal}.`),
        fromBody.refusal,
        'not_an_event',
      )
    }
    terms = fromBody
    const ping = integration.source === 'github' && terms.event === 'ping'
    const stored = await this.store.submit({
      integrationId: integration.id,
      workspaceId: integration.workspaceId,
      receivedAt,
      event: bounded(terms.event, 100) ?? 'unknown',
      senderDeliveryId: bounded(terms.senderDeliveryId, 200),
      dedupeKey: terms.senderKey ?? `body:${await sha256Hex(bytes)}`,
      body: bytes,
      headers: storableHeaders(headers),
      ...(ping ? { ignored: PING } : {}),
    })
    if (stored.kind === 'duplicate') {
      return json(200, { status: 200, delivery: stored.id, duplicateOf: stored.duplicateOf })
    }
    return json(ping ? 200 : 202, { status: ping ? 200 : 202, delivery: stored.id })
  }
}

function storableHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {}
  let size = 0
  for (const [name, value] of headers) {
    if (UNSTORED_HEADERS.has(name)) continue
    size += name.length + value.length
    if (size > 16_384) break
    kept[name] = value
  }
  return kept
}

/** `POST /hooks/{id}`: the receivers, outside the key-authenticated route table. */
export function receiverRoutes(receiver: Receiver) {
  return new Elysia().post(
    HOOK_PATH,
    ({ request, params }) => receiver.receive(request, params.id, new Date()),
    { parse: 'none' },
  )
}
