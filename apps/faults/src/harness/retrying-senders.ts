import { createShiplogClient } from '@shiplog/client'
import type { Sent } from './driver.ts'
import { commitFor, InFlight, paced } from './pacing.ts'

/** One HTTP attempt a sender made: its answer's status (0: no answer) and when it came. */
export interface Attempt {
  status: number
  at: number
}

/** What paced senders did: one logical deployment each, retried as `shiplog notify` retries. */
export interface RetriedLoad {
  /** Per logical deployment, its final outcome: 202 once any attempt was accepted. */
  deployments: Sent[]
  /** Every HTTP attempt of every deployment, retries included. */
  attempts: Attempt[]
  /** Deployments sent more than once (a 503 or no answer, then the same Idempotency-Key again). */
  retried: number
}

/**
 * Sends `rate` deployments a second until `stop()`, each through `@shiplog/client` (what the CLI,
 * the Action and the template send with), which retries 503s and network errors with backoff and
 * the same Idempotency-Key. Each deployment has a unique version, so rows match requests.
 */
export class RetryingSenders {
  private readonly result: RetriedLoad = { deployments: [], attempts: [], retried: 0 }
  private readonly inFlight = new InFlight()
  private running = true
  private readonly pacing: Promise<void>

  constructor(options: { base: string; key: string; rate: number; label: string }) {
    const attempts = this.result.attempts
    // Attempts per Idempotency-Key: the requests of one deployment, retries included.
    const attemptsOf = new Map<string, number>()
    const client = createShiplogClient({
      baseUrl: options.base,
      apiKey: options.key,
      maxRetries: 1_000,
      requestTimeoutMs: 15_000,
      fetch: async (input, init) => {
        const key = new Headers(init.headers).get('idempotency-key') ?? ''
        attemptsOf.set(key, (attemptsOf.get(key) ?? 0) + 1)
        try {
          const response = await fetch(input, init)
          attempts.push({ status: response.status, at: Date.now() })
          return response
        } catch (error) {
          attempts.push({ status: 0, at: Date.now() })
          throw error
        }
      },
    })
    const send = async (index: number) => {
      const version = `${options.label}-${index}`
      const startedAt = performance.now()
      const idempotencyKey = `${version}-key`
      let status = 202
      await client
        .createDeployment(
          {
            repositoryFullName: 'acme/failover',
            environment: index % 2 ? 'production' : 'staging',
            app: `svc-${index % 40}`,
            version,
            commitHash: commitFor(index),
          },
          { idempotencyKey },
        )
        .catch((error) => {
          status = Number((error as { status?: number }).status ?? 0)
        })
      if ((attemptsOf.get(idempotencyKey) ?? 0) > 1) this.result.retried++
      attemptsOf.delete(idempotencyKey)
      this.result.deployments.push({
        version,
        status,
        retryAfter: null,
        ms: Math.round(performance.now() - startedAt),
      })
    }
    this.pacing = paced(
      options.rate,
      () => this.running,
      (index) => this.inFlight.track(send(index)),
    )
  }

  /** Deployments answered 202 so far. */
  get accepted(): number {
    return this.result.deployments.filter((sent) => sent.status === 202).length
  }

  /** Stops sending new deployments and waits until every one sent has its final answer. */
  async stop(): Promise<RetriedLoad> {
    this.running = false
    await this.pacing
    await this.inFlight.settled()
    return this.result
  }
}

/** The longest time between two 202s, and when it began: how long writes were refused. */
export function longestGapWithout202(attempts: Attempt[]): { ms: number; from: number } {
  const times = attempts
    .filter((attempt) => attempt.status === 202)
    .map((attempt) => attempt.at)
    .sort((a, b) => a - b)
  let gap = { ms: 0, from: times[0] ?? 0 }
  for (let i = 1; i < times.length; i++) {
    const ms = (times[i] ?? 0) - (times[i - 1] ?? 0)
    if (ms > gap.ms) gap = { ms, from: times[i - 1] ?? 0 }
  }
  return gap
}
