/**
 * What an API key may do. `read` reads everything of its workspace; `deployments:write` records
 * deployments (and their commits); `incidents:write` opens, updates and resolves incidents;
 * `environments:write` sets environments' place in the pipeline and their production mark;
 * `admin` may do all of that and correct the record (void a deployment).
 */
export const SCOPES = [
  'deployments:write',
  'incidents:write',
  'environments:write',
  'read',
  'admin',
] as const
export type Scope = (typeof SCOPES)[number]

/** What a key gets when none is named: what every key could do before scopes existed. */
export const DEFAULT_SCOPES: readonly Scope[] = ['deployments:write', 'read']

/** Whether a key holding `held` may act under `needed`: `admin` holds every scope. */
export function allows(held: readonly Scope[], needed: Scope): boolean {
  return held.includes(needed) || held.includes('admin')
}

/** Whether a string names a scope. */
export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}
