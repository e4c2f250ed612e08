/** How a group commit batches: the most items per commit, the longest wait, the most commits in flight. */
export interface GroupCommitOptions {
  maxBatchSize: number
  maxWaitMs: number
  maxInFlight: number
}

interface Waiting<T, R> {
  item: T
  resolve: (result: R) => void
  reject: (error: unknown) => void
}

/**
 * Shares one commit among many callers. An item submitted while nothing is committing goes at once
 * (no added latency when idle); items arriving while commits are in flight gather until a commit
 * slot frees, the batch fills, or `maxWaitMs` passes. Every caller's promise settles only after the
 * commit that carried its item returned, and a failed commit rejects every caller in it.
 */
export class GroupCommit<T, R> {
  private waiting: Waiting<T, R>[] = []
  private inFlight = 0
  private timer: ReturnType<typeof setTimeout> | undefined
  private idleWaiters: (() => void)[] = []

  /**
   * `commit` returns one result per item. A result may itself be a promise: its caller waits for
   * it, but the commit slot is free at once (used to check a failed commit without holding up
   * the next one).
   */
  constructor(
    private readonly commit: (items: T[]) => Promise<(R | Promise<R>)[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  /** Resolves with this item's result once the commit that carried it has returned. */
  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject })
      this.schedule()
    })
  }

  /** Resolves once nothing is waiting and nothing is in flight (for shutdown). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** Items waiting for a commit plus commits running, for metrics and tests. */
  get depth(): { waiting: number; inFlight: number } {
    return { waiting: this.waiting.length, inFlight: this.inFlight }
  }

  private isIdle(): boolean {
    return this.waiting.length === 0 && this.inFlight === 0
  }

  private schedule(): void {
    const { maxBatchSize, maxWaitMs, maxInFlight } = this.options
    while (this.waiting.length > 0 && this.inFlight < maxInFlight) {
      const ready = this.inFlight === 0 || this.waiting.length >= maxBatchSize || maxWaitMs <= 0
      if (!ready) break
      this.flush()
    }
    if (this.waiting.length > 0 && this.timer === undefined && this.inFlight < maxInFlight) {
      this.timer = setTimeout(() => {
        this.timer = undefined
        if (this.waiting.length > 0 && this.inFlight < this.options.maxInFlight) this.flush()
        this.schedule()
      }, maxWaitMs)
    }
  }

  private flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    const batch = this.waiting.splice(0, this.options.maxBatchSize)
    this.inFlight++
    this.run(batch).finally(() => {
      this.inFlight--
      this.schedule()
      if (this.isIdle()) for (const wake of this.idleWaiters.splice(0)) wake()
    })
  }

  private async run(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.commit(batch.map((waiting) => waiting.item))
      if (results.length !== batch.length) {
        throw new Error(`commit returned ${results.length} results for ${batch.length} items`)
      }
      batch.forEach((waiting, index) => {
        Promise.resolve(results[index] as R | Promise<R>).then(waiting.resolve, waiting.reject)
      })
    } catch (error) {
      for (const waiting of batch) waiting.reject(error)
    }
  }
}
