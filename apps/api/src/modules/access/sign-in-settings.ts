// How people sign in to the dashboard, from the API's configuration (env.ts): with an API key,
// through an OpenID provider, or both; and the checks that stop the process on a setting that
// could not work, naming the variable.

import { parseRoleMapping, type RoleRule } from './role-mapping.ts'
import type { SignInEnv } from './sign-in-env.ts'

/** Single sign-on through an OpenID provider (docs/sign-in.md). */
export interface OidcSettings {
  issuer: URL
  clientId: string
  clientSecret: string
  scopes: string
  groupsClaim: string
  allowedDomains: string[]
  rules: RoleRule[]
  providerName: string
  /** Where the provider sends people back: PUBLIC_URL + /ui/sign-in/callback. */
  redirectUri: string
  /** Where the provider sends people after signing out there: PUBLIC_URL + /ui/sign-in. */
  postLogoutRedirectUri: string
  timeoutMs: number
  /** Plain http is allowed only for an issuer on this machine (development, tests). */
  allowHttp: boolean
}

/** The dashboard's ways in. */
export interface SignInSettings {
  keys: boolean
  oidc: OidcSettings | undefined
}

export const CALLBACK_PATH = '/ui/sign-in/callback'
export const SIGN_IN_PATH = '/ui/sign-in'

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])
const isLoopback = (url: URL) => LOOPBACK.has(url.hostname)

const domainsOf = (list: string | undefined) =>
  (list ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter((domain) => domain !== '')

/** Every reason the sign-in settings cannot work, each naming its variable. */
export function signInProblems(env: SignInEnv): string[] {
  const problems: string[] = []
  if (!env.OIDC_ISSUER_URL) {
    if (!env.DASHBOARD_KEY_SIGN_IN) {
      problems.push(
        'DASHBOARD_KEY_SIGN_IN is false and OIDC_ISSUER_URL is unset: nobody could sign in to the dashboard; set OIDC_ISSUER_URL (and its OIDC_* settings) or leave key sign-in on',
      )
    }
    return problems
  }
  const issuer = new URL(env.OIDC_ISSUER_URL)
  if (issuer.protocol !== 'https:' && !isLoopback(issuer)) {
    problems.push(
      `OIDC_ISSUER_URL must be an https:// URL (got "${env.OIDC_ISSUER_URL}"); plain http only for an issuer on this machine`,
    )
  }
  const needed = {
    OIDC_CLIENT_ID: env.OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET,
    OIDC_ROLE_MAPPING: env.OIDC_ROLE_MAPPING,
    PUBLIC_URL: env.PUBLIC_URL,
  }
  for (const [name, value] of Object.entries(needed)) {
    if (!value) problems.push(`${name} is required when OIDC_ISSUER_URL is set (docs/sign-in.md)`)
  }
  if (env.OIDC_ROLE_MAPPING) {
    try {
      parseRoleMapping(env.OIDC_ROLE_MAPPING)
    } catch (error) {
      problems.push(`OIDC_ROLE_MAPPING ${(error as Error).message}`)
    }
  }
  return problems
}

/** The sign-in settings of a configuration that passed `signInProblems`. */
export function signInSettingsOf(env: SignInEnv): SignInSettings {
  if (!env.OIDC_ISSUER_URL) return { keys: env.DASHBOARD_KEY_SIGN_IN, oidc: undefined }
  const issuer = new URL(env.OIDC_ISSUER_URL)
  const base = (env.PUBLIC_URL as string).replace(/\/$/, '')
  return {
    keys: env.DASHBOARD_KEY_SIGN_IN,
    oidc: {
      issuer,
      clientId: env.OIDC_CLIENT_ID as string,
      clientSecret: env.OIDC_CLIENT_SECRET as string,
      scopes: env.OIDC_SCOPES,
      groupsClaim: env.OIDC_GROUPS_CLAIM,
      allowedDomains: domainsOf(env.OIDC_ALLOWED_EMAIL_DOMAINS),
      rules: parseRoleMapping(env.OIDC_ROLE_MAPPING as string),
      providerName: env.OIDC_PROVIDER_NAME,
      redirectUri: base + CALLBACK_PATH,
      postLogoutRedirectUri: base + SIGN_IN_PATH,
      timeoutMs: env.OIDC_TIMEOUT_MS,
      allowHttp: isLoopback(issuer),
    },
  }
}
