// What Shiplog keeps of an integration's secret, and how a delivery proves it knows it, by
// source: GitHub, Flux (generic-hmac) and PagerDuty sign the body with an HMAC, so their secret
// is kept sealed; GitLab, CDEvents senders, Argo CD, Alertmanager and Opsgenie send the secret
// itself (X-Gitlab-Token, a bearer token, a Basic password), so a SHA-256 of it suffices.

import type { KeyObject } from 'node:crypto'
import type { IntegrationSource, StoredIntegration } from '@shiplog/db/integrations/integrations'
import { alertmanagerProves } from './alertmanager/credentials.ts'
import { verifyFluxProof } from './flux/signature.ts'
import { hmacKey, verifyGitHubSignatureWithKeys } from './github/signature.ts'
import { digestOf, gitLabTokenMatchesDigests } from './gitlab/token.ts'
import { verifyPagerDutySignature } from './pagerduty/signature.ts'
import type { Sealer } from './sealing.ts'

/** A new secret: 32 random bytes in base64url, prefixed so a secret scanner can spot a leak. */
export function newIntegrationSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return `shiplog_whsec_${btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')}`
}

// The sources whose senders sign with an HMAC: the secret itself is needed to check them.
const SEALED: ReadonlySet<IntegrationSource> = new Set(['github', 'flux', 'pagerduty'])

/** The bearer token of an `Authorization` header, or null. */
const bearerOf = (headers: Headers) =>
  /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '')?.[1] ?? null

/** The stored form of a secret for a source. */
export async function storedSecret(
  source: IntegrationSource,
  secret: string,
  sealer: Sealer | undefined,
): Promise<Uint8Array> {
  if (!SEALED.has(source)) return digestOf(secret)
  if (!sealer) throw new SealingKeyMissing()
  return sealer.seal(secret)
}

/** INTEGRATION_SEALING_KEY is not set, so a secret that must be sealed cannot be kept. */
export class SealingKeyMissing extends Error {
  constructor() {
    super('INTEGRATION_SEALING_KEY is not set')
  }
}

/** The stored secrets a delivery may prove: the current one, and the previous one in its grace. */
export function acceptedSecrets(integration: StoredIntegration, now: Date): Uint8Array[] {
  const previousValid =
    integration.previousSecret !== null &&
    integration.previousSecretUntil !== null &&
    new Date(integration.previousSecretUntil) > now
  return previousValid && integration.previousSecret
    ? [integration.secret, integration.previousSecret]
    : [integration.secret]
}

// The HMAC keys of an integration as the directory last read it: opening a sealed secret and
// importing its key cost more than the signature itself, and a burst of deliveries shares them.
const hmacKeys = new WeakMap<Uint8Array, Promise<KeyObject | undefined>>()

function hmacKeyOf(sealed: Uint8Array, sealer: Sealer): Promise<KeyObject | undefined> {
  let key = hmacKeys.get(sealed)
  if (!key) {
    key = sealer.open(sealed).then((secret) => (secret === undefined ? undefined : hmacKey(secret)))
    hmacKeys.set(sealed, key)
  }
  return key
}

/** Whether the request proves one of the integration's secrets, by its source's mechanism. */
export async function provesSecret(
  integration: StoredIntegration,
  headers: Headers,
  body: Uint8Array<ArrayBuffer>,
  sealer: Sealer | undefined,
  now: Date,
): Promise<boolean> {
  const stored = acceptedSecrets(integration, now)
  switch (integration.source) {
    case 'gitlab':
      return gitLabTokenMatchesDigests(stored, headers.get('x-gitlab-token'))
    case 'cdevents':
    case 'argocd':
    case 'opsgenie':
      return gitLabTokenMatchesDigests(stored, bearerOf(headers))
    case 'alertmanager':
      return alertmanagerProves(stored, headers.get('authorization'))
    case 'pagerduty':
      return verifyPagerDutySignature(
        await keysOf(stored, sealer),
        body,
        headers.get('x-pagerduty-signature'),
      )
    case 'github':
      return verifyGitHubSignatureWithKeys(
        await keysOf(stored, sealer),
        body,
        headers.get('x-hub-signature-256'),
      )
    case 'flux':
      return verifyFluxProof(await keysOf(stored, sealer), body, {
        signature: headers.get('x-signature'),
        bearer: bearerOf(headers),
      })
  }
}

async function keysOf(stored: Uint8Array[], sealer: Sealer | undefined): Promise<KeyObject[]> {
  if (!sealer) return []
  const keys: KeyObject[] = []
  for (const sealed of stored) {
    const key = await hmacKeyOf(sealed, sealer)
    if (key !== undefined) keys.push(key)
  }
  return keys
}

/** How each source proves a delivery, as a refusal says it to the person setting the hook up. */
export const PROOF: Record<IntegrationSource, string> = {
  github: 'X-Hub-Signature-256 is missing or is not the HMAC-SHA256 of the body with the secret',
  gitlab: 'X-Gitlab-Token is missing or is not the secret',
  cdevents: 'Authorization is missing or is not Bearer and the secret',
  argocd:
    'Authorization is missing or is not Bearer and the secret (argocd-notifications-secret holds it)',
  alertmanager:
    'Authorization is missing, or is neither Bearer and the secret (http_config.authorization) nor Basic with the secret as password (http_config.basic_auth)',
  pagerduty:
    'X-PagerDuty-Signature is missing or holds no v1= HMAC-SHA256 of the body with the subscription’s secret (the one given when the integration was created)',
  opsgenie:
    'Authorization is missing or is not Bearer and the secret (a custom header of the Opsgenie webhook integration)',
  flux: 'X-Signature is missing or is not sha256= and the HMAC-SHA256 of the body with the secret, and no Authorization: Bearer with the secret either (the Provider’s Secret holds it)',
}
