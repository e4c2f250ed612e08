import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import type { Actor } from '@shiplog/db/queries/audit-events'
import { Elysia } from 'elysia'
import { type HttpProblem, problems } from '../../kernel/problems.ts'
import type { ClientAddress } from '../../server/client-address.ts'
import { annotateRequest } from '../request-log/index.ts'
import type { KeyStore } from './key-store.ts'

/**
 * What auth asks of the per-address limit of requests without a valid key (the rate-limit
 * plugin's `AddressLimiter`, which runs after auth and so is not imported here).
 */
export interface AddressLimit {
  take(address: string): { allowed: boolean; retryAfterSeconds: number }
  giveBack(address: string): void
}

/** What auth asks of the keys: a `KeyStore`, or a stand-in in tests. */
export type KeyLookup = Pick<KeyStore, 'cachedOwner' | 'mightBeValid' | 'mayExist' | 'verify'>

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i
const INVALID_KEY =
  'The API key is not valid: it is malformed, unknown or revoked. Check that your pipeline sends the whole key (shiplog_ and 43 more characters); if it was revoked, ask whoever runs Shiplog for a new one.'
const MISSING_KEY =
  'Send your API key as `Authorization: Bearer <key>`; if you have none, ask whoever runs Shiplog for one.'
let instances = 0

/** A key as the actor of what its request changes, for the audit trail. */
export const keyActor = (owner: KeyOwner): Actor => ({ kind: 'key', keyId: owner.keyId })

/**
 * Resolves the bearer key to its workspace (`owner`) before anything else looks at the request,
 * answering 401 for a missing, malformed, unknown or revoked key. Requests without a valid key
 * also spend their address's tokens and get 429 once those run out, without a lookup; a valid
 * key is never refused for other clients' bad keys from the same address.
 */
export function auth(
  keys: KeyLookup,
  addresses: AddressLimit,
  clientAddress: ClientAddress,
  onRateLimited: () => void = () => {},
) {
  function refuse(address: string, key: string | undefined): never {
    const decision = addresses.take(address)
    if (!decision.allowed) throw tooMany(decision.retryAfterSeconds)
    throw problems.unauthorized(key ? INVALID_KEY : MISSING_KEY)
  }

  function tooMany(retryAfterSeconds: number): HttpProblem {
    onRateLimited()
    return problems.rateLimited(
      retryAfterSeconds,
      'Too many requests without a valid API key from this address; check the key your pipeline sends, then retry after Retry-After.',
    )
  }

  async function authenticate(request: Request, server: unknown): Promise<KeyOwner> {
    const key = BEARER.exec(request.headers.get('authorization') ?? '')?.[1]
    const cached = key ? keys.cachedOwner(key) : undefined
    if (cached) return cached
    const address = clientAddress(request, server)
    // No key, a malformed one, or one just found invalid: refused from memory, at a token each.
    if (key === undefined || !keys.mightBeValid(key)) refuse(address, key)
    // A key that may be valid is looked up, paid for with a token up front (concurrent guesses
    // cannot all pass a check none has paid for yet) and refunded if valid. Once the address has
    // no tokens left, only keys whose hash is in the directory are looked up: a valid key still
    // gets in from behind a NAT shared with a misconfigured pipeline, and guesses cost nothing.
    const decision = addresses.take(address)
    if (!decision.allowed && !(await keys.mayExist(key))) throw tooMany(decision.retryAfterSeconds)
    const owner = await keys.verify(key)
    if (!owner) throw problems.unauthorized(INVALID_KEY)
    if (decision.allowed) addresses.giveBack(address)
    return owner
  }

  return new Elysia({ name: 'auth', seed: ++instances }).derive(
    { as: 'scoped' },
    async ({ request, server }) => {
      const owner = await authenticate(request, server)
      annotateRequest(request, { workspace: owner.workspaceSlug })
      return { owner }
    },
  )
}
