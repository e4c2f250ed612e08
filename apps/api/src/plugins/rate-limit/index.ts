import { Elysia } from 'elysia'
import { problems } from '../../kernel/problems.ts'
import type { auth } from '../auth/index.ts'
import type { LeasedRateLimiter } from './leased-limiter.ts'
import type { BucketShape } from './token-bucket.ts'

let instances = 0

/**
 * Spends one token of the key's bucket per request (after auth, before the body is read), sets
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` on every authenticated response,
 * and answers 429 with `Retry-After` when the bucket is empty.
 */
export function rateLimit(
  authenticated: ReturnType<typeof auth>,
  limiter: LeasedRateLimiter,
  defaults: BucketShape,
  onRateLimited: () => void = () => {},
) {
  return new Elysia({ name: 'rate-limit', seed: ++instances })
    .use(authenticated)
    .derive({ as: 'scoped' }, async ({ owner, set }) => {
      if (!owner) throw new Error('the rate limit runs after auth; register auth first')
      const perKey = owner.rateLimitPerMinute
      const shape = perKey ? { capacity: perKey, perMinute: perKey } : defaults
      // A limiter that cannot reach Postgres throws its error to the one mapper (a 503 there).
      const decision = await limiter.take(owner.keyId, shape)
      set.headers['ratelimit-limit'] = String(decision.limit)
      set.headers['ratelimit-remaining'] = String(decision.remaining)
      set.headers['ratelimit-reset'] = String(decision.resetSeconds)
      if (!decision.allowed) {
        onRateLimited()
        throw problems.rateLimited(
          decision.retryAfterSeconds,
          `This API key has used its quota of ${decision.limit} requests; retry after ${decision.retryAfterSeconds}s.`,
        )
      }
      return { rateLimit: decision }
    })
}
