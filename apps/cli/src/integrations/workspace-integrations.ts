// The API's own integration operations (its service and wiring), bound to one workspace for the
// CLI. Imported from apps/api by path: the image ships both apps side by side, and one service
// keeps one rule for secrets, URLs, grace periods and the audit trail. Only the API's problems
// that speak HTTP are reworded, for someone at a shell on the server.

import { findWorkspaceId } from '@shiplog/db/queries/workspaces'
import type {
  Integration,
  IntegrationDelivery,
  IntegrationInput,
  IntegrationWithSecret,
} from '@shiplog/schema/integration'
import { HttpProblem } from '../../../api/src/kernel/problems.ts'
import {
  createWorkspaceIntegration,
  deleteWorkspaceIntegration,
  type IntegrationSettings,
  integrationDeliveries,
  rotateWorkspaceIntegrationSecret,
  workspaceIntegration,
  workspaceIntegrations,
} from '../../../api/src/modules/integrations/service.ts'
import { wireIntegrations } from '../../../api/src/modules/integrations/wiring.ts'
import { type CliDatabase, openDatabase } from '../database.ts'
import type { IntegrationsCliEnv } from '../env.ts'

// The audit trail's actor: an operator on the server, not a key or a person signed in.
const ACTOR = { kind: 'cli' } as const

/** One workspace's integrations, on the database the CLI opened. */
export class WorkspaceIntegrations {
  private constructor(
    private readonly db: CliDatabase,
    private readonly settings: IntegrationSettings,
    private readonly slug: string,
    private readonly owner: { workspaceId: string },
    private readonly origin: string,
  ) {}

  /** Opens the database and finds the workspace; `origin` names the URLs without PUBLIC_URL. */
  static async open(
    env: IntegrationsCliEnv,
    slug: string,
    origin: string,
  ): Promise<WorkspaceIntegrations> {
    const db = await openDatabase(env)
    const workspaceId = await findWorkspaceId(db.sql, slug)
    if (workspaceId === undefined) {
      await db.close()
      throw new Error(`no workspace "${slug}"; bun run keys list shows the workspaces`)
    }
    const { settings } = wireIntegrations(db.sql, {
      sealingKey: env.INTEGRATION_SEALING_KEY,
      publicUrl: env.PUBLIC_URL,
      graceSeconds: env.INTEGRATION_SECRET_GRACE_SECONDS,
      // The CLI receives no deliveries: the receiver wired beside the settings is never called.
      bodyMaxBytes: 0,
      bodyTimeoutMs: 0,
      ratePerMinute: 1,
    })
    return new WorkspaceIntegrations(db, settings, slug, { workspaceId }, origin)
  }

  create(input: IntegrationInput): Promise<IntegrationWithSecret> {
    return this.worded(
      createWorkspaceIntegration(this.db.sql, this.settings, this.owner, ACTOR, input, this.origin),
    )
  }

  list(): Promise<Integration[]> {
    return workspaceIntegrations(this.db.sql, this.settings, this.owner, this.origin)
  }

  find(id: string): Promise<Integration> {
    return this.worded(
      workspaceIntegration(this.db.sql, this.settings, this.owner, id, this.origin),
      id,
    )
  }

  rotate(id: string): Promise<IntegrationWithSecret> {
    return this.worded(
      rotateWorkspaceIntegrationSecret(
        this.db.sql,
        this.settings,
        this.owner,
        ACTOR,
        id,
        this.origin,
      ),
      id,
    )
  }

  delete(id: string): Promise<void> {
    return this.worded(
      deleteWorkspaceIntegration(this.db.sql, this.settings, this.owner, ACTOR, id),
      id,
    )
  }

  deliveries(id: string): Promise<IntegrationDelivery[]> {
    return this.worded(integrationDeliveries(this.db.sql, this.owner, id), id)
  }

  close(): Promise<void> {
    return this.db.close()
  }

  /** The operation's result, with the API's 404 and 503 reworded for the server's shell. */
  private async worded<T>(operation: Promise<T>, id?: string): Promise<T> {
    try {
      return await operation
    } catch (error) {
      if (!(error instanceof HttpProblem)) throw error
      if (error.status === 404) {
        throw new Error(
          `no integration ${id} in workspace "${this.slug}"; bun run integrations list --workspace ${this.slug} shows them`,
        )
      }
      if (error.status === 503) {
        throw new Error(
          "INTEGRATION_SEALING_KEY is not set, and GitHub integrations need it to seal their secrets: run this where the API runs (its pod has the key), or set it to the API's own key (docs/integrations.md)",
        )
      }
      throw new Error(error.detail)
    }
  }
}
