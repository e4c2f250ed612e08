// Who may use which workspace, and as what: rules from configuration (OIDC_ROLE_MAPPING) matched
// against what the identity provider says of a person (their groups, their email). Pure: the
// sign-in and every signed-in request apply the same rules, so a person removed from them loses
// access at their next request.
import type { Scope } from '@shiplog/schema'

/** A person's role in a workspace, each holding the one before it. */
export const ROLES = ['viewer', 'operator', 'admin'] as const
export type Role = (typeof ROLES)[number]

/** What each role may do, as the API scopes of a key: one rule for pages and posts alike. */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  viewer: ['read'],
  operator: ['read', 'incidents:write', 'environments:write'],
  admin: ['read', 'incidents:write', 'environments:write', 'admin'],
}

/** One rule: people in `group` (or with this email, or of this email domain) get `role`. */
export interface RoleRule {
  match: 'group' | 'email' | 'domain'
  value: string
  workspace: string
  role: Role
}

/** What a person is, for matching: their groups and their email, if verified. */
export interface PersonFacts {
  groups: readonly string[]
  email: string | null
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/
const RULE = /^(group|email|domain):(.+)=([^=:]+):([a-z]+)$/

/**
 * The rules of OIDC_ROLE_MAPPING: entries separated by `;` or new lines, each
 * `group:<name>=<workspace>:<role>`, `email:<address>=…` or `domain:<example.com>=…`. Throws a
 * message naming the entry that is wrong.
 */
export function parseRoleMapping(text: string): RoleRule[] {
  const entries = text
    .split(/[;\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  if (entries.length === 0) throw new Error('names no rule')
  return entries.map((entry) => {
    const match = RULE.exec(entry)
    if (!match) {
      throw new Error(`"${entry}" is not group:<name>=<workspace>:<role> (or email:… or domain:…)`)
    }
    const [, kind, value, workspace, role] = match as unknown as [
      string,
      RoleRule['match'],
      string,
      string,
      string,
    ]
    if (!SLUG.test(workspace)) throw new Error(`"${entry}": ${workspace} is not a workspace slug`)
    if (!(ROLES as readonly string[]).includes(role)) {
      throw new Error(`"${entry}": the role must be viewer, operator or admin`)
    }
    const normalized = kind === 'group' ? value.trim() : value.trim().toLowerCase()
    return { match: kind, value: normalized, workspace, role: role as Role }
  })
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase()

function matches(rule: RoleRule, person: PersonFacts): boolean {
  if (rule.match === 'group') return person.groups.includes(rule.value)
  if (person.email === null) return false
  return rule.match === 'email'
    ? person.email.toLowerCase() === rule.value
    : domainOf(person.email) === rule.value
}

/** Whether a person's email is of an allowed domain (always, when no domain is listed). */
export function emailAllowed(person: PersonFacts, allowedDomains: readonly string[]): boolean {
  if (allowedDomains.length === 0) return true
  return person.email !== null && allowedDomains.includes(domainOf(person.email))
}

/** Every workspace the person may use, with their highest role there, by slug. */
export function accessOf(
  rules: readonly RoleRule[],
  allowedDomains: readonly string[],
  person: PersonFacts,
): Map<string, Role> {
  const access = new Map<string, Role>()
  if (!emailAllowed(person, allowedDomains)) return access
  for (const rule of rules) {
    if (!matches(rule, person)) continue
    const held = access.get(rule.workspace)
    if (!held || ROLES.indexOf(rule.role) > ROLES.indexOf(held))
      access.set(rule.workspace, rule.role)
  }
  return access
}
