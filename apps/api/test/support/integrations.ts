import { expect } from 'bun:test'
import examples from '@octokit/webhooks-examples'
import { sign } from '@octokit/webhooks-methods'
import type {
  IntegrationDelivery,
  IntegrationSource,
  IntegrationWithSecret,
} from '@shiplog/schema/integration'
import type { Harness } from './harness.ts'

/** An admin key of the harness's workspace. */
export async function adminKey(h: Harness): Promise<string> {
  return (await h.createKey({ scopes: ['admin'] })).key
}

/** Creates an integration through the API; answers it with its secret. */
export async function createIntegration(
  h: Harness,
  key: string,
  body: { source: IntegrationSource; name: string; mapping?: unknown; secret?: string },
): Promise<IntegrationWithSecret> {
  const response = await h.send('POST', '/v1/integrations', { key, body })
  expect(response.status).toBe(201)
  return (await response.json()) as IntegrationWithSecret
}

/** The path of an integration's URL, to post to in-process. */
export const hookPathOf = (integration: { url: string }) => new URL(integration.url).pathname

/**
 * Posts bytes as GitHub does: signed with `secret` by Octokit's own `sign` (the payload as the
 * string GitHub sends, never re-serialised), with GitHub's headers.
 */
export async function deliverGitHub(
  h: Harness,
  integration: { url: string; secret: string },
  event: string,
  payload: string,
  options: { delivery?: string; hookId?: string; signature?: string | null } = {},
): Promise<Response> {
  const signature =
    options.signature === undefined ? await sign(integration.secret, payload) : options.signature
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/7c3a1e3',
    'x-github-event': event,
    'x-github-delivery': options.delivery ?? crypto.randomUUID(),
    'x-github-hook-id': options.hookId ?? '123456789',
  }
  if (signature !== null) headers['x-hub-signature-256'] = signature
  return h.send('POST', hookPathOf(integration), { key: null, headers, rawBody: payload })
}

/** Posts bytes as GitLab does: its token, its event header, perhaps its Idempotency-Key. */
export function deliverGitLab(
  h: Harness,
  integration: { url: string; secret: string },
  event: string,
  payload: string,
  options: { idempotencyKey?: string; token?: string | null } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'GitLab/17.6.0',
    'x-gitlab-event': event,
    'x-gitlab-instance': 'https://gitlab.example.com',
  }
  const token = options.token === undefined ? integration.secret : options.token
  if (token !== null) headers['x-gitlab-token'] = token
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey
  return h.send('POST', hookPathOf(integration), { key: null, headers, rawBody: payload })
}

/**
 * Posts bytes as Flux's notification-controller does: with a generic-hmac Provider, signed with
 * `secret` under `X-Signature` (GitHub's scheme, so Octokit's own `sign`); with a generic one
 * (`bearer`), the Secret's `Authorization` header instead.
 */
export async function deliverFlux(
  h: Harness,
  integration: { url: string; secret: string },
  payload: string,
  options: { secret?: string; bearer?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'gotk-component': 'kustomize-controller',
  }
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`
  else headers['x-signature'] = await sign(options.secret ?? integration.secret, payload)
  return h.send('POST', hookPathOf(integration), { key: null, headers, rawBody: payload })
}

/** The integration's deliveries list, newest first. */
export async function deliveriesOf(
  h: Harness,
  key: string,
  integration: { id: string },
): Promise<IntegrationDelivery[]> {
  const response = await h.get(`/v1/integrations/${integration.id}/deliveries`, { key })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: IntegrationDelivery[] }).data
}

/** GitHub's examples of one event, from @octokit/webhooks-examples, as plain JSON objects. */
export function githubExamples(event: string): Record<string, Record<string, unknown>>[] {
  const all = examples as unknown as {
    name: string
    examples: Record<string, Record<string, unknown>>[]
  }[]
  return all.find((each) => each.name === event)?.examples ?? []
}

/** GitHub's first example of a deployment_status that says success. */
export function githubSuccessStatus(): Record<string, Record<string, unknown>> {
  const found = githubExamples('deployment_status').find(
    (each) => each.deployment_status?.state === 'success',
  )
  if (!found) throw new Error('@octokit/webhooks-examples has no successful deployment_status')
  return found
}

/**
 * GitHub's own success example, made the deployment `id` of `sha` to production of acme/shop's
 * checkout at `at` (as `version` when given), in `repository` (a GitHub repository object).
 */
export function githubDeploymentSuccess(
  deployment: { id: number; sha: string; at: string; version?: string },
  repository: Record<string, unknown>,
): string {
  const example = githubSuccessStatus()
  return JSON.stringify({
    ...example,
    deployment_status: {
      ...example.deployment_status,
      environment: 'production',
      created_at: deployment.at,
    },
    deployment: {
      ...example.deployment,
      id: deployment.id,
      sha: deployment.sha,
      ref: 'main',
      environment: 'production',
      payload: {
        app: 'checkout',
        ...(deployment.version === undefined ? {} : { version: deployment.version }),
      },
    },
    repository: { ...example.repository, ...repository },
  })
}

/** Posts bytes with `Authorization: Bearer <token>` (CDEvents senders, Argo CD, a generic Flux Provider). */
export function deliverWithBearer(
  h: Harness,
  integration: { url: string; secret: string },
  payload: string,
  headers: Record<string, string>,
  token: string | null = integration.secret,
): Promise<Response> {
  const all: Record<string, string> = { 'content-type': 'application/json', ...headers }
  if (token !== null) all.authorization = `Bearer ${token}`
  return h.send('POST', hookPathOf(integration), { key: null, headers: all, rawBody: payload })
}
