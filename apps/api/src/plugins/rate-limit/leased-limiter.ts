import type { Sql } from '@shiplog/db/client'
import { leaseTokens, type TokenLease } from '@shiplog/db/queries/rate-limit-buckets'
import { type BucketShape, describe, type RateDecision } from './token-bucket.ts'

/** Fetches tokens from the shared bucket; a seam so the limiter can be tested without Postgres. */
export type LeaseSource = (keyId: string, wanted: number, shape: BucketShape) => Promise<TokenLease>

/** Share of a key's capacity one replica leases at a time: the error bound per replica. */
export const LEASE_FRACTION = 0.05
// Tokens leased but unused for this long are dropped, so an idle replica cannot hoard a burst.
const LEASE_LIFETIME_MS = 60_000

interface KeyState {
  shape: BucketShape
  local: number
  leasedAt: number
  sharedRemaining: number
  sharedAt: number
  deniedUntil: number
  waiting: number
  leasing: Promise<void> | undefined
}

/**
 * A per-key token bucket shared by every API replica. The bucket lives in Postgres; each replica
 * leases a few tokens at a time (5% of capacity) and spends them from memory, so most requests
 * cost no round trip, and an empty bucket is remembered until its next token is due. No replica
 * ever spends a token the shared bucket did not grant, so N replicas never exceed the quota; the
 * error is on the strict side, at most one lease per replica left unspent.
 */
export class LeasedRateLimiter {
  private readonly keys = new Map<string, KeyState>()

  constructor(
    private readonly lease: LeaseSource,
    private readonly now: () => number = Date.now,
  ) {}

  /** Spends one token of this key's bucket. Rejects only when the shared bucket is unreachable. */
  async take(keyId: string, shape: BucketShape): Promise<RateDecision> {
    const state = this.stateOf(keyId, shape)
    for (;;) {
      const now = this.now()
      if (state.local >= 1 && now - state.leasedAt > LEASE_LIFETIME_MS) state.local = 0
      if (state.local >= 1) {
        state.local -= 1
        // Leased tokens plus this replica's view of the shared bucket can overlap; never report more
        // than a full bucket.
        return describe(
          shape,
          Math.min(shape.capacity, state.local + this.sharedEstimate(state, now)),
          true,
        )
      }
      if (state.deniedUntil > now) {
        return describe(shape, this.sharedEstimate(state, now), false)
      }
      state.waiting++
      try {
        // Deferred a microtask so requests arriving together are counted into one lease.
        state.leasing ??= Promise.resolve().then(() => this.refill(keyId, state))
        await state.leasing
      } finally {
        state.waiting--
      }
    }
  }

  private stateOf(keyId: string, shape: BucketShape): KeyState {
    let state = this.keys.get(keyId)
    if (
      !state ||
      state.shape.capacity !== shape.capacity ||
      state.shape.perMinute !== shape.perMinute
    ) {
      state = {
        shape,
        local: 0,
        leasedAt: 0,
        sharedRemaining: shape.capacity,
        sharedAt: 0,
        deniedUntil: 0,
        waiting: 0,
        leasing: undefined,
      }
      this.keys.set(keyId, state)
    }
    return state
  }

  private async refill(keyId: string, state: KeyState): Promise<void> {
    try {
      const chunk = Math.max(1, Math.floor(state.shape.capacity * LEASE_FRACTION))
      const wanted = Math.max(chunk, state.waiting)
      const { granted, remaining } = await this.lease(keyId, wanted, state.shape)
      const now = this.now()
      state.local += granted
      state.leasedAt = now
      state.sharedRemaining = remaining
      state.sharedAt = now
      if (granted === 0) {
        const perMs = state.shape.perMinute / 60_000
        state.deniedUntil = now + Math.ceil((1 - remaining) / perMs)
      }
    } finally {
      state.leasing = undefined
    }
  }

  private sharedEstimate(state: KeyState, now: number): number {
    const refilled = ((now - state.sharedAt) * state.shape.perMinute) / 60_000
    return Math.min(state.shape.capacity, state.sharedRemaining + refilled)
  }
}

/** The lease source backed by the `rate_limit_buckets` table. */
export function postgresLeases(sql: Sql): LeaseSource {
  return (keyId, wanted, shape) => leaseTokens(sql, keyId, wanted, shape)
}
