import { expect, test } from 'bun:test'
import { loadApiEnv } from '../../env.ts'
import { signInSettingsOf } from './sign-in-settings.ts'

const DATABASE_URL = 'postgres://shiplog@db/shiplog'
const SSO = {
  DATABASE_URL,
  OIDC_ISSUER_URL: 'https://login.example.com/realms/acme',
  OIDC_CLIENT_ID: 'shiplog',
  OIDC_CLIENT_SECRET: 'secret',
  OIDC_ROLE_MAPPING: 'group:shiplog-admins=acme:admin',
  PUBLIC_URL: 'https://shiplog.example.com/',
}

/** The message loadApiEnv stops the process with. */
function refusal(source: Record<string, string>): string {
  try {
    loadApiEnv(source)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('the configuration was accepted')
}

test('without an issuer single sign-on is off and keys sign in, as before', () => {
  expect(signInSettingsOf(loadApiEnv({ DATABASE_URL }))).toEqual({ keys: true, oidc: undefined })
})

test('a complete configuration gives the callback and sign-out URLs under PUBLIC_URL', () => {
  const { oidc, keys } = signInSettingsOf(loadApiEnv({ ...SSO, DASHBOARD_KEY_SIGN_IN: 'false' }))
  expect(keys).toBe(false)
  expect(oidc).toMatchObject({
    clientId: 'shiplog',
    scopes: 'openid email profile',
    groupsClaim: 'groups',
    redirectUri: 'https://shiplog.example.com/ui/sign-in/callback',
    postLogoutRedirectUri: 'https://shiplog.example.com/ui/sign-in',
    allowHttp: false,
    rules: [{ match: 'group', value: 'shiplog-admins', workspace: 'acme', role: 'admin' }],
  })
})

test('each setting that cannot work stops the process, naming its variable', () => {
  expect(refusal({ DATABASE_URL, DASHBOARD_KEY_SIGN_IN: 'false' })).toContain(
    'DASHBOARD_KEY_SIGN_IN is false and OIDC_ISSUER_URL is unset',
  )
  const missing = refusal({ DATABASE_URL, OIDC_ISSUER_URL: SSO.OIDC_ISSUER_URL })
  for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLE_MAPPING', 'PUBLIC_URL']) {
    expect(missing).toContain(`${name} is required when OIDC_ISSUER_URL is set`)
  }
  expect(refusal({ ...SSO, OIDC_ISSUER_URL: 'http://login.example.com' })).toContain(
    'OIDC_ISSUER_URL must be an https:// URL',
  )
  expect(refusal({ ...SSO, OIDC_ISSUER_URL: 'login.example.com' })).toContain(
    'OIDC_ISSUER_URL must be',
  )
  expect(refusal({ ...SSO, OIDC_SCOPES: 'email profile' })).toContain('OIDC_SCOPES must be')
  expect(refusal({ ...SSO, OIDC_ROLE_MAPPING: 'group:x=acme:owner' })).toContain(
    'OIDC_ROLE_MAPPING "group:x=acme:owner": the role must be',
  )
  expect(refusal({ ...SSO, PUBLIC_URL: 'shiplog.example.com' })).toContain('PUBLIC_URL must be')
  expect(refusal({ ...SSO, OIDC_ALLOWED_EMAIL_DOMAINS: 'a.com;b.com' })).toContain(
    'OIDC_ALLOWED_EMAIL_DOMAINS must be',
  )
})

test('plain http is accepted for an issuer on this machine only', () => {
  const local = loadApiEnv({ ...SSO, OIDC_ISSUER_URL: 'http://127.0.0.1:8080' })
  expect(signInSettingsOf(local).oidc?.allowHttp).toBe(true)
})
