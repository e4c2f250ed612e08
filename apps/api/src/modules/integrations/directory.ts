import type { Sql } from '@shiplog/db/client'
import { findIntegrationById, type StoredIntegration } from '@shiplog/db/integrations/integrations'

/** How long a receiver trusts what it read of an integration. */
const FRESH_MS = 2_000

/**
 * The receivers' view of integrations: each read at most once per FRESH_MS, so a burst of
 * deliveries costs one lookup, while a deleted integration or a rotated secret takes effect within
 * that time on every replica.
 */
export class IntegrationDirectory {
  private readonly known = new Map<
    string,
    { integration: StoredIntegration | undefined; at: number }
  >()

  constructor(
    private readonly sql: Sql,
    private readonly now: () => number = Date.now,
  ) {}

  async find(id: string): Promise<StoredIntegration | undefined> {
    const now = this.now()
    const cached = this.known.get(id)
    if (cached && now - cached.at < FRESH_MS) return cached.integration
    const integration = await findIntegrationById(this.sql, id)
    if (this.known.size > 10_000) this.known.clear()
    this.known.set(id, { integration, at: now })
    return integration
  }

  /** Forgets one at once: this replica changed it. */
  forget(id: string): void {
    this.known.delete(id)
  }
}
