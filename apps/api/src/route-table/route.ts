import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import type { DeploymentQueue } from '@shiplog/db/queue'
import type { FieldError, NoQuery, Scope } from '@shiplog/schema'
import type { Static, TObject, TSchema } from '@sinclair/typebox'
import type { ReadSlots } from '../kernel/read-slots.ts'
import type { ReadClients } from '../kernel/workspace.ts'
import type { IntegrationSettings } from '../modules/integrations/service.ts'
import type { Answer } from './answers.ts'

/** The groups of operations, in the order the document and its page list them. */
export const TAGS = {
  Deployments: 'Record deployments and read them back',
  Catalog: 'Applications, environments, and what is deployed where',
  Metrics: 'DORA metrics computed from recorded deployments',
  Incidents: 'What went wrong in an environment, and what caused it',
  Audit: 'Who changed the record: people signed in through single sign-on, and keys',
  Integrations: 'Git hosts that report deployments and pushes by themselves',
} as const

export type Tag = keyof typeof TAGS

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** What a check answers: the value its handler receives, or every failing field (a 422). */
export type CheckResult = { ok: true } | { ok: false; errors: FieldError[] }

/** The success of a check, without its `ok`: what the handler is handed. */
export type Passed<R> = R extends { ok: true } ? Omit<R, 'ok'> : never

/**
 * The JSON body a route reads: refused with 413, 408, 400 or 422 before its handler runs, then
 * checked by `check`, whose success the handler receives; it never sees a body that failed.
 */
export interface BodyDeclaration<R extends CheckResult = CheckResult> {
  /** What the body holds, as published. */
  schema: TSchema
  /** Checks the parsed JSON (undefined where an optional body was left out) at the request time. */
  check(body: unknown, receivedAt: Date): R
  /** Completes "The request body must be a JSON object with …" for a body that is not one. */
  expected: string
  /** Larger than the default limit (`BODY_MAX_BYTES`). */
  maxBytes?: number
  /** No body at all (no length, no type) is allowed: `check` gets `undefined`. */
  optional?: true
}

/** The request headers a route reads: published, and checked with the body (one 422 for all). */
export interface HeadersDeclaration<R extends CheckResult = CheckResult> {
  schema: TObject
  check(headers: Headers): R
}

/**
 * What a route promises a client, declared once: the registrar (`register.ts`) checks requests
 * by it, in the contract's order, and `openapi.ts` publishes it. What it checks, its handler
 * never checks again: only what needs the database (an unknown cause, a reused key) is left.
 */
export interface RouteContract {
  method: Method
  /** OpenAPI form: `/v1/deployments/{id}`. */
  path: `/v1/${string}`
  operationId: string
  tag: Tag
  summary: string
  /** Markdown. */
  description: string
  scope: Scope
  params?: TObject
  /**
   * Omitted: the route takes no parameters, and any given is a 422. `'ignored'`: the query
   * string is not read at all, as `POST /v1/deployments` has always done.
   */
  query?: TObject | 'ignored'
  headers?: HeadersDeclaration
  body?: BodyDeclaration
  /** Every status it may answer but 401 and 403, which follow from authentication and `scope`. */
  answers: Record<number, Answer>
}

/** What a route's handler needs from the rest of the app. */
export interface RouteDeps {
  /** `replica`: the read pool (DATABASE_READ_URL, else the primary); `primary`: for writes. */
  clients: ReadClients
  /** Accepts deployments, and knows those not recorded yet. */
  queue: DeploymentQueue
  /** Bounds concurrent reads per key and in all. */
  reads: ReadSlots
  /** Bounds concurrent receipts, which may read the primary. */
  receipts: ReadSlots
  /** Sealing, the public URL and the rotation grace of integrations. */
  integrations: IntegrationSettings
}

/** A request that passed every check of its contract. */
export interface RouteInput<Q extends TObject, P extends TObject, B = unknown, H = unknown> {
  owner: KeyOwner
  query: Static<Q>
  params: Static<P>
  /** The body as its check passed it. */
  body: B
  /** The declared request headers as their check passed them. */
  headers: H
  request: Request
  /** Headers of the answer, for a `Location`. */
  answerHeaders: Record<string, unknown>
  /** When the request arrived, before anything was checked. */
  receivedAt: Date
}

/** A route: its contract and the handler that answers once every check passed. */
export interface Route extends RouteContract {
  handle(input: RouteInput<TObject, TObject>, deps: RouteDeps): unknown
}

type EmptyObject = TObject<Record<never, never>>

/**
 * Declares a route, typing its handler's query, path parameters, body and headers by the schemas
 * and checks it declares.
 */
export function route<
  Q extends TObject = typeof NoQuery,
  P extends TObject = EmptyObject,
  B extends CheckResult = { ok: true },
  H extends CheckResult = { ok: true },
>(
  declaration: Omit<RouteContract, 'query' | 'params' | 'body' | 'headers'> & {
    query?: Q | 'ignored'
    params?: P
    body?: BodyDeclaration<B>
    headers?: HeadersDeclaration<H>
    handle(input: RouteInput<Q, P, Passed<B>, Passed<H>>, deps: RouteDeps): unknown
  },
): Route {
  return declaration as unknown as Route
}
