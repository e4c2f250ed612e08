import type { Sql } from '@shiplog/db/client'
import { isDatabaseUnavailable } from '@shiplog/db/errors'
import { deriveWaitingChains } from '@shiplog/db/integrations/commit-chains'
import { settleDelivery, takeWaitingDeliveries } from '@shiplog/db/integrations/deliveries'
import type { LogLine } from '@shiplog/ops-http/log'
import { handleDelivery } from './handle-delivery.ts'

/** How many deliveries one transaction handles, and chains one round derives. */
const DELIVERIES_PER_BATCH = 50
const CHAINS_PER_ROUND = 50

/** How the deliveries of a committed batch ended, by source and state, for the metrics. */
export type HandledDeliveries = (outcomes: { source: string; state: string }[]) => void

/**
 * Handles one batch of waiting deliveries in one transaction, each under its own savepoint: one
 * that fails (a bug, a value Postgres refuses) is ignored with the reason and never blocks the
 * others; an outage rolls the whole batch back, to be taken again. Resolves with how many it took;
 * `handled` hears how they ended once the batch has committed.
 */
export async function handleWaitingDeliveries(
  sql: Sql,
  log: LogLine,
  handled?: HandledDeliveries,
): Promise<number> {
  const { taken, outcomes } = await sql.begin(async (tx) => {
    const taken = await takeWaitingDeliveries(tx, DELIVERIES_PER_BATCH)
    for (const waiting of taken) {
      try {
        await tx.savepoint((savepoint) => handleDelivery(savepoint, waiting))
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw error
        log({
          level: 'error',
          msg: 'delivery not handled',
          delivery: waiting.id,
          error: String(error),
        })
        await settleDelivery(tx, waiting.id, {
          state: 'ignored',
          reason: `Shiplog could not handle it (${error instanceof Error ? error.message : String(error)}); the worker's log has the details`,
        })
      }
    }
    const states = await tx<{ id: string; state: string }[]>`
      select id::text, state from integration_deliveries
       where id = any(${taken.map(({ id }) => id)}::uuid[])`
    const sourceOf = new Map(taken.map(({ id, source }) => [id, source]))
    return {
      taken: taken.length,
      outcomes: states.map(({ id, state }) => ({ source: sourceOf.get(id) ?? 'unknown', state })),
    }
  })
  if (outcomes.length > 0) handled?.(outcomes)
  return taken
}

/**
 * The worker's second loop: deliveries from integrations, then the commit chains they left to
 * derive. Polls again at once while there was work, waits `pollIntervalMs` when there was none,
 * and backs off after an error.
 */
export class IntegrationWork {
  private stopping = false
  private running: Promise<void> | undefined
  private wake: (() => void) | undefined

  constructor(
    private readonly sql: Sql,
    private readonly pollIntervalMs: number,
    private readonly log: LogLine,
    private readonly handled?: HandledDeliveries,
  ) {}

  /** One round: a batch of deliveries, then chains; how much it did. */
  async runOnce(): Promise<number> {
    const deliveries = await handleWaitingDeliveries(this.sql, this.log, this.handled)
    const chains = await deriveWaitingChains(this.sql, CHAINS_PER_ROUND)
    return deliveries + chains
  }

  start(): void {
    this.stopping = false
    this.running = this.loop()
  }

  async stop(): Promise<void> {
    this.stopping = true
    this.wake?.()
    await this.running
  }

  private async loop(): Promise<void> {
    let errors = 0
    while (!this.stopping) {
      try {
        const done = await this.runOnce()
        errors = 0
        if (done === 0) await this.pause(this.pollIntervalMs)
      } catch (error) {
        errors++
        this.log({ level: 'error', msg: 'integration work rolled back', error: String(error) })
        await this.pause(Math.min(10_000, 100 * 2 ** errors))
      }
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.wake = undefined
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.wake = done
    })
  }
}
