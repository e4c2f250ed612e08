import { type BucketShape, type RateDecision, TokenBucket } from './token-bucket.ts'

const MAX_TRACKED_ADDRESSES = 50_000

/**
 * Limits requests that fail authentication per client address, in this replica's memory: key
 * guessing and floods of bad requests run dry here before they can reach Postgres.
 */
export class AddressLimiter {
  private readonly buckets = new Map<string, TokenBucket>()

  constructor(
    private readonly shape: BucketShape,
    private readonly now: () => number = Date.now,
  ) {}

  /** Spends one token for this address. */
  take(address: string): RateDecision {
    const now = this.now()
    let bucket = this.buckets.get(address)
    if (!bucket) {
      if (this.buckets.size >= MAX_TRACKED_ADDRESSES) this.forgetIdle(now)
      bucket = new TokenBucket(this.shape, now)
      this.buckets.set(address, bucket)
    }
    return bucket.take(now)
  }

  /** Returns a token spent by a request that turned out to carry a valid key. */
  giveBack(address: string): void {
    this.buckets.get(address)?.refund(this.now())
  }

  // A full bucket carries no information, so dropping it loses nothing.
  private forgetIdle(now: number): void {
    for (const [address, bucket] of this.buckets) {
      if (bucket.isFull(now)) this.buckets.delete(address)
    }
    if (this.buckets.size >= MAX_TRACKED_ADDRESSES) {
      const oldest = this.buckets.keys().next()
      if (!oldest.done) this.buckets.delete(oldest.value)
    }
  }
}
