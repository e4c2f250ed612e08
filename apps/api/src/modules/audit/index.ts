import { AuditPage, ListAuditQuery } from '@shiplog/schema/audit'
import { READ_ERRORS } from '../../route-table/answers.ts'
import { route } from '../../route-table/route.ts'
import { listWorkspaceAudit } from './service.ts'

const list = route({
  method: 'GET',
  path: '/v1/audit',
  operationId: 'listAuditEvents',
  tag: 'Audit',
  summary: 'Who changed what, newest first',
  description: `Every change to the record, in the transaction that made it: a deployment voided, an incident opened or changed, a key created or revoked. \`actor\` says who: a person signed in through single sign-on (name and email), an API key (name and prefix), or the command line on the server. \`limit\` a page; pass \`nextCursor\` as \`cursor\` for the next page. Filters combine. Needs the \`admin\` scope.`,
  scope: 'admin',
  query: ListAuditQuery,
  answers: { 200: { description: 'OK', body: AuditPage }, ...READ_ERRORS },
  // The primary: a change's event is read back at once, and the trail is small beside deployments.
  handle: ({ owner, query }, { reads, clients }) =>
    reads.run(owner.keyId, () => listWorkspaceAudit(clients.primary, owner, query)),
})

/** `/v1/audit`: the audit trail. */
export const auditRoutes = [list]
