import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { Elysia } from 'elysia'
import { problems } from '../problem/index.ts'
import type { AddressLimiter } from '../rate-limit/address-limiter.ts'
import { annotateRequest } from '../request-log/index.ts'
import type { KeyStore } from './key-store.ts'

/** Tells apart clients that send no valid key, for the per-address limit. */
export type ClientAddress = (request: Request, server: unknown) => string

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i
let instances = 0

/**
 * Resolves the bearer key to its workspace (`owner`) before anything else looks at the request,
 * answering 401 for a missing, malformed, unknown or revoked key. Requests without a valid key
 * also spend their address's tokens, and get 429 once those run out, before any lookup.
 */
export function auth(
  keys: KeyStore,
  addresses: AddressLimiter,
  clientAddress: ClientAddress,
  onRateLimited: () => void = () => {},
) {
  async function authenticate(request: Request, server: unknown): Promise<KeyOwner> {
    const key = BEARER.exec(request.headers.get('authorization') ?? '')?.[1]
    const cached = key ? keys.cachedOwner(key) : undefined
    if (cached) return cached
    const address = clientAddress(request, server)
    // The token is spent before the lookup, not after: concurrent guesses cannot all pass a
    // check that none of them has paid for yet. A key that proves valid gets it back.
    const trusted = key !== undefined && keys.wasRecentlyValid(key)
    if (!trusted) {
      const decision = addresses.take(address)
      if (!decision.allowed) {
        onRateLimited()
        throw problems.rateLimited(
          decision.retryAfterSeconds,
          'Too many requests without a valid API key from this address; wait before retrying.',
        )
      }
    }
    const owner = key ? await keys.verify(key) : undefined
    if (owner) {
      if (!trusted) addresses.giveBack(address)
      return owner
    }
    throw problems.unauthorized(
      key
        ? 'The API key is not valid: it is malformed, unknown or revoked. Create one with `bun run keys create`.'
        : 'Send your API key as `Authorization: Bearer <key>`.',
    )
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
