import { isDatabaseUnavailable } from '../errors.ts'

// How long new requests are turned away after Postgres was found unreachable.
const UNAVAILABLE_PAUSE_MS = 1_000

/**
 * Turns requests away for a moment after a commit found Postgres unreachable, so an outage
 * answers 503 at once instead of holding every request for a connection timeout.
 */
export class UnavailablePause {
  private until = 0

  constructor(
    private readonly pauseMs = UNAVAILABLE_PAUSE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** True while new commits are not even tried. */
  get active(): boolean {
    return this.now() < this.until
  }

  /** Told of every failed commit: one that could not reach Postgres starts a pause. */
  noteFailure(error: unknown): void {
    if (isDatabaseUnavailable(error)) this.until = this.now() + this.pauseMs
  }
}
