// The API's settings for dashboard sign-in (docs/sign-in.md): API keys, single sign-on through
// OpenID Connect, or both. Part of the API's environment (env.ts reads it, with the rest); here so
// that sign-in-settings.ts can take their type without importing env.ts back.
import { type Static, Type } from '@sinclair/typebox'

/** The sign-in variables of `ApiEnv`, as TypeBox properties. */
export const SIGN_IN_SETTINGS = {
  DASHBOARD_KEY_SIGN_IN: Type.Boolean({
    default: true,
    description:
      'Whether people may sign in to the dashboard by pasting an API key; `false` needs `OIDC_ISSUER_URL` ([sign-in.md](sign-in.md))',
  }),
  OIDC_ISSUER_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s?#]+$',
      errorMessage: 'the issuer URL of an OpenID provider, without query or fragment',
      description:
        'Issuer of the OpenID provider: `https://`, or `http://` for `localhost` or `127.0.0.1` only; unset, single sign-on is off',
    }),
  ),
  OIDC_CLIENT_ID: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'The client registered at the provider; required with `OIDC_ISSUER_URL`',
    }),
  ),
  OIDC_CLIENT_SECRET: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Its secret, from a Kubernetes Secret (`oidc.existingSecret` in Helm); required with `OIDC_ISSUER_URL`',
    }),
  ),
  OIDC_SCOPES: Type.String({
    pattern: '(^| )openid( |$)',
    errorMessage: 'scopes separated by spaces, openid among them',
    default: 'openid email profile',
    description: 'Scopes asked of the provider',
  }),
  OIDC_GROUPS_CLAIM: Type.String({
    pattern: '^[A-Za-z0-9_:./-]{1,100}$',
    errorMessage: 'the name of a claim, e.g. groups or roles',
    default: 'groups',
    description: "The claim listing the person's groups (in the ID token or from UserInfo)",
  }),
  OIDC_ALLOWED_EMAIL_DOMAINS: Type.Optional(
    Type.String({
      pattern: '^ *[A-Za-z0-9.-]+( *, *[A-Za-z0-9.-]+)* *$',
      errorMessage: 'domains separated by commas, e.g. example.com,example.org',
      description:
        'Only people with a verified email in one of these domains sign in; unset, any domain',
    }),
  ),
  OIDC_ROLE_MAPPING: Type.Optional(
    Type.String({
      description:
        '`group:<name>=<workspace>:<role>` (or `email:`, `domain:`) rules separated by `;`; roles `viewer`, `operator`, `admin`; required with `OIDC_ISSUER_URL`',
    }),
  ),
  OIDC_PROVIDER_NAME: Type.String({
    minLength: 1,
    maxLength: 60,
    default: 'single sign-on',
    description: 'Shown on the button: "Sign in with …"',
  }),
  OIDC_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 60_000,
    default: 5_000,
    description: 'Longest wait for each request to the provider (then a `503` page)',
  }),
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/?#\\s]+/?$',
      errorMessage: 'the scheme and host people open Shiplog at, e.g. https://shiplog.example.com',
      description:
        'Where people open Shiplog; the provider sends them back to `/ui/sign-in/callback` under it; required with `OIDC_ISSUER_URL`',
    }),
  ),
}

const SignInEnvSchema = Type.Object(SIGN_IN_SETTINGS)

/** The sign-in variables, parsed. */
export type SignInEnv = Static<typeof SignInEnvSchema>
