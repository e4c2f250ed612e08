import type { Sql } from '@shiplog/db/client'
import { currentSqlApplied } from '@shiplog/db/current-sql'
import { appliedMigrationVersion, latestMigrationVersion } from '@shiplog/db/migrations'

const CHECK_INTERVAL_MS = 1_000

/** Whether this process should receive traffic, and if not, why. */
export interface ReadinessState {
  ready: boolean
  reason: string
}

/**
 * Ready means: not shutting down, Postgres answers, and its schema is this build's: its latest
 * migration or a later one, and its functions, triggers and views (`packages/db/sql`) applied,
 * now or before a later build's replaced them. "Or later" because old replicas keep serving
 * while a rollout's migrate step brings the next build's schema, which must work for them too.
 * Probed at most once a second however often load balancers ask.
 */
export class Readiness {
  private shuttingDown = false
  private last: { at: number; state: ReadinessState } | undefined
  private probing: Promise<ReadinessState> | undefined

  constructor(
    private readonly sql: Sql,
    private readonly extraCheck: () => string | undefined = () => undefined,
  ) {}

  /** From now on, report not ready so load balancers move traffic away before we stop. */
  markShuttingDown(): void {
    this.shuttingDown = true
  }

  /** The current state, probing Postgres when the last probe is older than a second. */
  async check(): Promise<ReadinessState> {
    if (this.shuttingDown) return { ready: false, reason: 'shutting down' }
    const now = Date.now()
    if (this.last && now - this.last.at < CHECK_INTERVAL_MS) return this.last.state
    this.probing ??= this.probe().finally(() => {
      this.probing = undefined
    })
    const state = await this.probing
    this.last = { at: now, state }
    return state
  }

  private async probe(): Promise<ReadinessState> {
    try {
      const [applied, latest, functions] = await Promise.all([
        appliedMigrationVersion(this.sql),
        latestMigrationVersion(),
        currentSqlApplied(this.sql),
      ])
      if (applied < latest) {
        return {
          ready: false,
          reason: `database at migration ${applied}, expected ${latest}: run bun run migrate`,
        }
      }
      if (!functions) {
        return {
          ready: false,
          reason: "database lacks this build's functions, triggers and views: run bun run migrate",
        }
      }
      const extra = this.extraCheck()
      return extra ? { ready: false, reason: extra } : { ready: true, reason: 'ok' }
    } catch (error) {
      return { ready: false, reason: `database unreachable: ${(error as Error).message}` }
    }
  }
}
