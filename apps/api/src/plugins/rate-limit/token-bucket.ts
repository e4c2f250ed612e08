/** A bucket's shape: it holds up to `capacity` tokens and gains `perMinute` of them a minute. */
export interface BucketShape {
  capacity: number
  perMinute: number
}

/** What one attempt to spend a token decided, with everything the RateLimit headers need. */
export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until the bucket is full again. */
  resetSeconds: number
  /** Seconds until the next token, when denied. */
  retryAfterSeconds: number
}

/** A classic token bucket; time is passed in so it stays pure and testable. */
export class TokenBucket {
  private tokens: number
  private updatedAt: number

  constructor(
    readonly shape: BucketShape,
    now: number,
  ) {
    this.tokens = shape.capacity
    this.updatedAt = now
  }

  private refill(now: number): void {
    const elapsedMs = Math.max(0, now - this.updatedAt)
    this.tokens = Math.min(
      this.shape.capacity,
      this.tokens + (elapsedMs * this.shape.perMinute) / 60_000,
    )
    this.updatedAt = now
  }

  /** Spends one token if there is one. */
  take(now: number): RateDecision {
    this.refill(now)
    const allowed = this.tokens >= 1
    if (allowed) this.tokens -= 1
    return describe(this.shape, this.tokens, allowed)
  }

  /** Puts back a token taken by mistake, never above capacity. */
  refund(now: number): void {
    this.refill(now)
    this.tokens = Math.min(this.shape.capacity, this.tokens + 1)
  }

  /** Tokens available now, without spending any. */
  peek(now: number): number {
    this.refill(now)
    return this.tokens
  }

  /** True once the bucket has refilled completely, so an idle bucket can be forgotten. */
  isFull(now: number): boolean {
    this.refill(now)
    return this.tokens >= this.shape.capacity
  }
}

/** Builds the decision for a bucket holding `tokens` after the attempt. */
export function describe(shape: BucketShape, tokens: number, allowed: boolean): RateDecision {
  const perSecond = shape.perMinute / 60
  return {
    allowed,
    limit: shape.capacity,
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.ceil(Math.max(0, shape.capacity - tokens) / perSecond),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perSecond)),
  }
}
