const TICK_MS = 10

/** Requests still waiting for their answer, to wait for every one of them at the end. */
export class InFlight {
  private readonly waiting = new Set<Promise<void>>()

  track(promise: Promise<void>): void {
    this.waiting.add(promise)
    promise.finally(() => this.waiting.delete(promise))
  }

  /** Resolves once every request tracked, including any tracked meanwhile, has its answer. */
  async settled(): Promise<void> {
    while (this.waiting.size > 0) await Promise.all([...this.waiting])
  }
}

/**
 * Calls `send(index)` `rate` times a second while `going(elapsedMs)` holds. Paced by the clock:
 * each tick sends what the rate owes since the start, so a slow tick is made up by the next,
 * never dropped.
 */
export async function paced(
  rate: number,
  going: (elapsedMs: number) => boolean,
  send: (index: number) => void,
): Promise<void> {
  const startedAt = performance.now()
  let next = 0
  while (going(performance.now() - startedAt)) {
    const owed = Math.floor(((performance.now() - startedAt) / 1000) * rate)
    for (; next < owed; next++) send(next)
    await new Promise((resolve) => setTimeout(resolve, TICK_MS))
  }
}

/** A made-up commit SHA for the `index`th deployment of a load: 40 hex digits, one per index. */
export const commitFor = (index: number): string =>
  (index * 2654435761).toString(16).padStart(8, '0').repeat(5).slice(0, 40)
