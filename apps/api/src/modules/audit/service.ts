import type { Sql } from '@shiplog/db/client'
import { auditEventsOf, listAuditEvents } from '@shiplog/db/queries/audit-events'
import { encodeCursor } from '@shiplog/schema'
import type { AuditEvent, AuditPage, ListAuditQuery } from '@shiplog/schema/audit'
import type { Workspace } from '../../kernel/workspace.ts'

/** `GET /v1/audit`: one page of the workspace's audit trail, newest first. */
export async function listWorkspaceAudit(
  sql: Sql,
  owner: Workspace,
  query: ListAuditQuery,
): Promise<AuditPage> {
  const page = await listAuditEvents(sql, {
    workspaceId: owner.workspaceId,
    action: query.action,
    targetId: query.targetId,
    actor: query.actor,
    since: query.since?.iso,
    until: query.until?.iso,
    limit: query.limit ?? 50,
    after: query.cursor,
  })
  return { data: page.events, nextCursor: page.next ? encodeCursor(page.next) : null }
}

/** What was changed of these deployments, incidents or keys (ids of the workspace), newest first. */
export function historyOf(
  sql: Sql,
  owner: Workspace,
  ids: readonly string[],
): Promise<AuditEvent[]> {
  return auditEventsOf(sql, owner.workspaceId, ids)
}
