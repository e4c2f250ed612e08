// Who a dashboard session speaks for, decided at every request: a key's session may do what its
// key may (while key sign-in is on and the key unrevoked); a person's may do what their role in
// the session's workspace allows, by the role mapping as it is now.
import type { Actor } from '@shiplog/db/queries/audit-events'
import type { DashboardSession } from '@shiplog/db/queries/dashboard-sessions'
import { allows, type Scope } from '@shiplog/schema'
import { accessOf, ROLE_SCOPES, type Role } from '../access/role-mapping.ts'
import type { SignInSettings } from '../access/sign-in-settings.ts'

/** A signed-in session's rights and identity, as every page and post checks them. */
export interface Principal {
  workspaceId: string
  workspaceSlug: string
  scopes: readonly Scope[]
  actor: Actor
  /** For the header: the person's name or email, or "API key". */
  label: string
  /** A person's role in this workspace; undefined for a key. */
  role: Role | undefined
  /** Every workspace a person may switch to (this one included); empty for a key. */
  workspaces: string[]
  /** Whose share of the read slots the pages take: the key's, or the person's. */
  slot: string
}

/** The principal of a session, or undefined when it may no longer use the dashboard. */
export function principalOf(
  session: DashboardSession,
  settings: SignInSettings,
): Principal | undefined {
  if (session.kind === 'key') {
    const { owner } = session
    if (!settings.keys || !allows(owner.scopes, 'read')) return undefined
    return {
      workspaceId: owner.workspaceId,
      workspaceSlug: owner.workspaceSlug,
      scopes: owner.scopes,
      actor: { kind: 'key', keyId: owner.keyId },
      label: 'API key',
      role: undefined,
      workspaces: [],
      slot: owner.keyId,
    }
  }
  const oidc = settings.oidc
  if (!oidc) return undefined
  const access = accessOf(oidc.rules, oidc.allowedDomains, session.person)
  const role = access.get(session.workspaceSlug)
  if (!role) return undefined
  const { person } = session
  return {
    workspaceId: session.workspaceId,
    workspaceSlug: session.workspaceSlug,
    scopes: ROLE_SCOPES[role],
    actor: { kind: 'person', personId: person.id },
    label: person.name ?? person.email ?? 'signed in',
    role,
    workspaces: [...access.keys()].sort(),
    slot: `person:${person.id}`,
  }
}
