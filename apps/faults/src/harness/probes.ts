/** An answer of a probe: its status (0: no answer) and when it came. */
export interface ProbeAnswer {
  status: number
  at: number
}

/**
 * Asks `/healthz` and `/readyz` every 100 ms until stopped, as a kubelet would (more often), and
 * keeps every answer: a scenario shows liveness held while readiness dropped and came back.
 */
export class HealthProbes {
  readonly healthz: ProbeAnswer[] = []
  readonly readyz: ProbeAnswer[] = []
  private running = true
  private readonly loop: Promise<void>

  constructor(base: string) {
    const ask = async (path: string, into: ProbeAnswer[]) => {
      const status = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(5_000) })
        .then(async (response) => {
          await response.arrayBuffer()
          return response.status
        })
        .catch(() => 0)
      into.push({ status, at: Date.now() })
    }
    this.loop = (async () => {
      while (this.running) {
        await Promise.all([ask('/healthz', this.healthz), ask('/readyz', this.readyz)])
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()
  }

  /** Readiness answers between two instants. */
  readyzBetween(from: number, to: number): number[] {
    return this.readyz.filter((answer) => answer.at >= from && answer.at <= to).map((a) => a.status)
  }

  async stop(): Promise<void> {
    this.running = false
    await this.loop
  }
}
