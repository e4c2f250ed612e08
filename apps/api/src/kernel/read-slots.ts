import { problems } from './problems.ts'

/** How many reads may run at once. */
export interface ReadSlotLimits {
  /** Per API key: one pipeline or dashboard cannot occupy the pool. */
  perKey: number
  /** In all, leaving connections for writes, key lookups and readiness probes. */
  total: number
  /** How long a read waits for one of the `total` slots before a 503. */
  maxWaitMs: number
}

/**
 * Bounds concurrent reads, which can each hold a Postgres connection for up to the statement
 * timeout: a key past its share gets 429 at once (it is competing with itself); a read that finds
 * every slot taken waits in line, then gets 503 if none frees up in time.
 */
export class ReadSlots {
  private readonly byKey = new Map<string, number>()
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly limits: ReadSlotLimits) {}

  /** Runs `read` in a slot of `keyId`'s share. */
  async run<T>(keyId: string, read: () => Promise<T>): Promise<T> {
    const mine = this.byKey.get(keyId) ?? 0
    if (mine >= this.limits.perKey) {
      throw problems.rateLimited(
        1,
        `This API key already has ${this.limits.perKey} reads in progress; wait for one to finish before sending another.`,
      )
    }
    this.byKey.set(keyId, mine + 1)
    try {
      await this.acquire()
      try {
        return await read()
      } finally {
        this.release()
      }
    } finally {
      const left = (this.byKey.get(keyId) ?? 1) - 1
      if (left === 0) this.byKey.delete(keyId)
      else this.byKey.set(keyId, left)
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.limits.total) {
      this.running++
      return Promise.resolve()
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer)
        this.running++
        resolve()
      }
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(grant), 1)
        reject(problems.unavailable('Too many reads are running right now; retry in a moment.', 1))
      }, this.limits.maxWaitMs)
      this.waiting.push(grant)
    })
  }

  private release(): void {
    this.running--
    this.waiting.shift()?.()
  }
}
