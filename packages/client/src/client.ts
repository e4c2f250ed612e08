import type {
  DeploymentCommits,
  DeploymentCommitsInput,
  DeploymentInput,
  DeploymentPage,
  DeploymentStatus,
  DoraMetrics,
  EnvironmentList,
  EnvironmentPlaceInput,
  EnvironmentSummary,
  FirstDeliveryPage,
  Incident,
  IncidentInput,
  IncidentPage,
  IncidentPatch,
} from '@shiplog/schema'
import { ShiplogError } from './errors.ts'
import { newIdempotencyKey } from './idempotency-key.ts'
import { type ListDeploymentsQuery, listQueryParams } from './list-query.ts'
import { deploymentIdFromLocation } from './location.ts'
import {
  type DoraMetricsQuery,
  type ListCommitsQuery,
  type ListIncidentsQuery,
  queryParams,
} from './read-queries.ts'
import { createTransport, type FetchLike, type Retry, type Sleep } from './transport.ts'
import { pollUntilRecorded, type WaitOptions } from './wait.ts'

export type { DoraMetricsQuery, ListCommitsQuery, ListIncidentsQuery } from './read-queries.ts'

export interface ShiplogClientOptions {
  /** Where the API is served, e.g. `https://shiplog.example.com` (a path prefix is kept). */
  baseUrl: string | URL
  apiKey: string
  /** Defaults to the global `fetch`. */
  fetch?: FetchLike
  /**
   * Retries of a 429, 503 or network failure before giving up; default: as many as `retryForMs`
   * allows. With both set, retrying stops at whichever runs out first.
   */
  maxRetries?: number
  /**
   * How long to keep retrying a 429, 503 or network failure, from a call's first attempt; default
   * 120 000 ms, which outlasts a Postgres failover behind the API (10–60 s). No retry starts
   * later (a wait is cut short instead), so a call ends within this plus one `requestTimeoutMs`.
   * `Infinity` leaves `maxRetries` alone to bound it.
   */
  retryForMs?: number
  /** Told of each retry before its wait, e.g. to log it: the client itself prints nothing. */
  onRetry?: (retry: Retry) => void
  /** Defaults to a `setTimeout` promise. */
  sleep?: Sleep
  /** Defaults to `Date.now`; with `sleep`, lets a test go through retries without waiting. */
  now?: () => number
  /** Abort (and retry) an attempt that has not been answered within this; default 30 000 ms. */
  requestTimeoutMs?: number
}

export interface CreateDeploymentOptions {
  /** Defaults to a random UUID per call, reused by that call's retries. */
  idempotencyKey?: string
}

/** The receipt of an accepted deployment. */
export interface CreatedDeployment {
  id: string
  /**
   * Absolute URL of the deployment's status (`GET` it, or use `getDeployment(id)`), under the base
   * URL: the API's `Location` names the path it serves, which a proxy's prefix is not part of.
   */
  location: string
  /** The key sent: pass it again to repeat this request safely. */
  idempotencyKey: string
}

export interface ShiplogClient {
  /** Queues a deployment; resolves once the API has durably accepted it (202). */
  createDeployment(
    input: DeploymentInput,
    options?: CreateDeploymentOptions,
  ): Promise<CreatedDeployment>
  /** What became of an accepted deployment: queued, recorded or failed. */
  getDeployment(id: string): Promise<DeploymentStatus>
  /** The absolute URL of a deployment's receipt, under the base URL (its path prefix kept). */
  receiptUrl(id: string): string
  /** The absolute URL of a deployment's dashboard page, for a person in a signed-in browser. */
  pageUrl(id: string): string
  /** One page of deployments, newest `deployedAt` first: recorded ones unless `status` says. */
  listDeployments(query?: ListDeploymentsQuery): Promise<DeploymentPage>
  /** Polls until recorded; throws `DeploymentFailedError` or `DeploymentWaitTimeoutError`. */
  waitUntilRecorded(id: string, options?: WaitOptions): Promise<DeploymentStatus>
  /** The five DORA keys of an environment (or all production ones) over a window, and per week (or day). */
  getDoraMetrics(query?: DoraMetricsQuery): Promise<DoraMetrics>
  /** One page of the commits change lead time counted, newest deployment first. */
  listCommits(query?: ListCommitsQuery): Promise<FirstDeliveryPage>
  /**
   * Voids a recorded deployment (an `admin` key): kept for audit, counted nowhere. Resolves with
   * its receipt, now `voided`.
   */
  voidDeployment(id: string, options?: { reason?: string }): Promise<DeploymentStatus>
  /** Stores the commits a deployment delivered (replacing any sent before; safe to retry). */
  putDeploymentCommits(id: string, input: DeploymentCommitsInput): Promise<void>
  /** The commits stored for a deployment. */
  getDeploymentCommits(id: string): Promise<DeploymentCommits>
  /**
   * Opens an incident (a key with `incidents:write`). Not sent twice after a network failure,
   * which could have hidden that it was opened; 429 and 503 are retried.
   */
  openIncident(input: IncidentInput): Promise<Incident>
  /** Resolves, reopens or corrects an incident: `{ resolvedAt }`, `{ causeDeploymentId }`… */
  changeIncident(id: string, patch: IncidentPatch): Promise<Incident>
  getIncident(id: string): Promise<Incident>
  /** One page of incidents, latest `startedAt` first. */
  listIncidents(query?: ListIncidentsQuery): Promise<IncidentPage>
  /** The workspace's environments in pipeline order, each with its place and latest deployment. */
  listEnvironments(): Promise<EnvironmentList>
  /**
   * Sets an environment's place in the pipeline (an `environments:write` key); `null` goes back
   * to the rule.
   */
  placeEnvironment(name: string, place: EnvironmentPlaceInput): Promise<EnvironmentSummary>
}

/**
 * Twice the longest failover we expect behind the API (issue 42: 10–60 s), and as long as
 * `--wait` waits: long enough to ride one out, short enough that a pipeline whose Shiplog is
 * really down fails within minutes.
 */
const DEFAULT_RETRY_FOR_MS = 120_000
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000
const DEPLOYMENTS = 'v1/deployments'
const INCIDENTS = 'v1/incidents'

function parseBaseUrl(baseUrl: string | URL): URL {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new TypeError(
      `baseUrl must be an absolute http(s) URL, got ${JSON.stringify(String(baseUrl))}`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must be an http(s) URL, got ${url.protocol}`)
  }
  // Paths resolve relative to the base, so without a trailing slash a prefix would be dropped.
  if (!url.pathname.endsWith('/')) url.pathname += '/'
  url.search = ''
  url.hash = ''
  return url
}

/** A client for the Shiplog API, on the Web platform's `fetch` alone (Bun, Node ≥ 20, Deno). */
export function createShiplogClient(options: ShiplogClientOptions): ShiplogClient {
  if (!options.apiKey) throw new TypeError('apiKey is required')
  const maxRetries = options.maxRetries ?? Number.POSITIVE_INFINITY
  if (
    !(Number.isInteger(maxRetries) || maxRetries === Number.POSITIVE_INFINITY) ||
    maxRetries < 0
  ) {
    throw new TypeError('maxRetries must be a whole number ≥ 0')
  }
  const retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS
  if (Number.isNaN(retryForMs) || retryForMs < 0) {
    throw new TypeError('retryForMs must be a number of milliseconds ≥ 0')
  }
  if (maxRetries === Number.POSITIVE_INFINITY && retryForMs === Number.POSITIVE_INFINITY) {
    throw new TypeError(
      'retryForMs: Infinity needs a maxRetries, or a Shiplog that stays down is retried forever',
    )
  }
  const sleep: Sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  const now = options.now ?? Date.now
  const { send, endpoint } = createTransport({
    baseUrl: parseBaseUrl(options.baseUrl),
    apiKey: options.apiKey,
    // Looked up per call rather than captured, so a fetch patched later (tests, tracing) is used.
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    maxRetries,
    retryForMs,
    sleep,
    now,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  })

  const receiptPath = (id: string) => `${DEPLOYMENTS}/${encodeURIComponent(id)}`

  async function getDeployment(id: string, retryUntil?: number): Promise<DeploymentStatus> {
    const call = { method: 'GET', path: receiptPath(id) } as const
    const response = await send(retryUntil === undefined ? call : { ...call, retryUntil })
    return (await response.json()) as DeploymentStatus
  }

  const receiptUrl = (id: string) => endpoint({ method: 'GET', path: receiptPath(id) }).href

  return {
    async createDeployment(input, createOptions = {}) {
      const idempotencyKey = createOptions.idempotencyKey ?? newIdempotencyKey()
      const call = {
        method: 'POST',
        path: DEPLOYMENTS,
        body: JSON.stringify(input),
        headers: { 'idempotency-key': idempotencyKey },
      } as const
      const response = await send(call)
      await response.body?.cancel()
      const location = response.headers.get('location')
      const id = location === null ? undefined : deploymentIdFromLocation(location)
      if (location === null || id === undefined) {
        throw new ShiplogError({
          type: 'about:blank',
          title: 'No deployment id in the answer',
          status: response.status,
          detail:
            `The deployment was accepted (${response.status}) but the API sent ` +
            `${location === null ? 'no Location header' : `Location ${JSON.stringify(location)}`}, ` +
            'so its id is unknown: this API predates deployment receipts.',
        })
      }
      return { id, location: receiptUrl(id), idempotencyKey }
    },

    // Without the second parameter: the wait's deadline is no part of the public call.
    getDeployment: (id) => getDeployment(id),

    receiptUrl,

    pageUrl: (id) =>
      endpoint({ method: 'GET', path: `ui/deployments/${encodeURIComponent(id)}` }).href,

    async listDeployments(query = {}) {
      const response = await send({
        method: 'GET',
        path: DEPLOYMENTS,
        query: listQueryParams(query),
      })
      return (await response.json()) as DeploymentPage
    },

    waitUntilRecorded(id, waitOptions = {}) {
      // A receipt read retrying through an outage stops at the wait's own deadline.
      return pollUntilRecorded((deadline) => getDeployment(id, deadline), {
        ...waitOptions,
        sleep,
        now,
      })
    },

    async voidDeployment(id, options = {}) {
      const path = receiptPath(id)
      const body =
        options.reason === undefined ? undefined : JSON.stringify({ reason: options.reason })
      const response = await send({
        method: 'DELETE',
        path,
        ...(body === undefined ? {} : { body }),
      })
      return (await response.json()) as DeploymentStatus
    },

    async putDeploymentCommits(id, input) {
      const path = `${receiptPath(id)}/commits`
      const response = await send({ method: 'PUT', path, body: JSON.stringify(input) })
      await response.body?.cancel()
    },

    async getDeploymentCommits(id) {
      const path = `${receiptPath(id)}/commits`
      const response = await send({ method: 'GET', path })
      return (await response.json()) as DeploymentCommits
    },

    async openIncident(input) {
      const body = JSON.stringify(input)
      const response = await send({ method: 'POST', path: INCIDENTS, body, repeatable: false })
      return (await response.json()) as Incident
    },

    async changeIncident(id, patch) {
      const path = `${INCIDENTS}/${encodeURIComponent(id)}`
      const response = await send({ method: 'PATCH', path, body: JSON.stringify(patch) })
      return (await response.json()) as Incident
    },

    async getIncident(id) {
      const response = await send({ method: 'GET', path: `${INCIDENTS}/${encodeURIComponent(id)}` })
      return (await response.json()) as Incident
    },

    async listIncidents(query = {}) {
      const params = queryParams({ ...query })
      const response = await send({ method: 'GET', path: INCIDENTS, query: params })
      return (await response.json()) as IncidentPage
    },

    async listEnvironments() {
      const response = await send({ method: 'GET', path: 'v1/environments' })
      return (await response.json()) as EnvironmentList
    },

    async placeEnvironment(name, place) {
      const path = `v1/environments/${encodeURIComponent(name)}`
      const response = await send({ method: 'PUT', path, body: JSON.stringify(place) })
      return (await response.json()) as EnvironmentSummary
    },

    async listCommits(query = {}) {
      const { production, ...rest } = query
      const params = queryParams({
        ...rest,
        ...(production === undefined ? {} : { production: String(production) }),
      })
      const response = await send({ method: 'GET', path: 'v1/commits', query: params })
      return (await response.json()) as FirstDeliveryPage
    },

    async getDoraMetrics(query = {}) {
      const params = queryParams({ ...query })
      const response = await send({ method: 'GET', path: 'v1/metrics/dora', query: params })
      return (await response.json()) as DoraMetrics
    },
  }
}
