// The relying party of an OpenID provider, on `oauth4webapi` (certified, Web APIs only: the same
// code runs under Bun, Deno and Node): authorization code flow with PKCE, state and nonce. No
// protocol check is written here; this file only says which ones to run, in which order, and
// what their failures mean to a person signing in.
import * as oauth from 'oauth4webapi'
import type { OidcSettings } from './sign-in-settings.ts'

/** The provider cannot be reached, or answers as no provider should: a 503 page, never a 500. */
export class ProviderUnavailable extends Error {}

/** The provider's answer failed a check (state, nonce, a code already used…): refused. */
export class SignInRefused extends Error {}

/** What a sign-in checks and must find again at the callback: never leaves the server. */
export interface FlowSecrets {
  state: string
  nonce: string
  codeVerifier: string
}

/** Who signed in, as the provider vouches for them. */
export interface ProviderIdentity {
  issuer: string
  subject: string
  /** Null when the provider gives none, or says it is not verified. */
  email: string | null
  name: string | null
  groups: string[]
  idToken: string
}

// Metadata changes rarely; an hour keeps a key rotation or a moved endpoint from lasting long.
const METADATA_TTL_MS = 60 * 60 * 1000

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)
const textList = (value: unknown) =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []

// A protocol answer that failed a check, as opposed to a provider that could not be asked.
const isRefusal = (error: unknown) =>
  error instanceof oauth.OperationProcessingError ||
  error instanceof oauth.AuthorizationResponseError ||
  error instanceof oauth.WWWAuthenticateChallengeError ||
  (error instanceof oauth.ResponseBodyError && error.status < 500)

// What an operator reads in the log: a provider's own error code (invalid_grant…) when it sent one.
const describe = (error: unknown) =>
  error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError
    ? `${error.error}: ${error.error_description ?? error.message}`
    : String(error)

/** One OpenID provider, discovered from its issuer's metadata on first use. */
export class OidcClient {
  private metadata: { server: oauth.AuthorizationServer; until: number } | undefined
  private discovering: Promise<oauth.AuthorizationServer> | undefined
  private readonly client: oauth.Client
  private readonly authentication: oauth.ClientAuth

  constructor(
    readonly settings: OidcSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.client = { client_id: settings.clientId }
    this.authentication = oauth.ClientSecretBasic(settings.clientSecret)
  }

  private options() {
    return {
      signal: () => AbortSignal.timeout(this.settings.timeoutMs),
      [oauth.allowInsecureRequests]: this.settings.allowHttp,
    }
  }

  /**
   * The provider's metadata: cached, or discovered now (concurrent callers share one request).
   * `fresh` asks again whatever the cache holds.
   */
  async server(fresh = false): Promise<oauth.AuthorizationServer> {
    if (!fresh && this.metadata && this.metadata.until > this.now()) return this.metadata.server
    this.discovering ??= this.discover().finally(() => {
      this.discovering = undefined
    })
    return this.discovering
  }

  private async discover(): Promise<oauth.AuthorizationServer> {
    const issuer = this.settings.issuer
    try {
      const response = await oauth.discoveryRequest(issuer, this.options())
      const server = await oauth.processDiscoveryResponse(issuer, response)
      this.metadata = { server, until: this.now() + METADATA_TTL_MS }
      return server
    } catch (error) {
      throw new ProviderUnavailable(`discovery at ${issuer.href} failed: ${String(error)}`)
    }
  }

  /**
   * Fresh secrets for a sign-in, and where to send the browser with them. The metadata is asked
   * for again: a provider that is down gets a clear page here, rather than a browser sent to a
   * dead address (and an endpoint that moved is followed at once).
   */
  async begin(): Promise<{ secrets: FlowSecrets; url: URL }> {
    const server = await this.server(true)
    if (!server.authorization_endpoint) {
      throw new ProviderUnavailable('the provider publishes no authorization_endpoint')
    }
    const secrets = {
      state: oauth.generateRandomState(),
      nonce: oauth.generateRandomNonce(),
      codeVerifier: oauth.generateRandomCodeVerifier(),
    }
    const url = new URL(server.authorization_endpoint)
    url.search = new URLSearchParams({
      client_id: this.settings.clientId,
      redirect_uri: this.settings.redirectUri,
      response_type: 'code',
      scope: this.settings.scopes,
      state: secrets.state,
      nonce: secrets.nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(secrets.codeVerifier),
      code_challenge_method: 'S256',
    }).toString()
    return { secrets, url }
  }

  /**
   * Completes a sign-in from the callback's URL: its `state` (and issuer) checked, the code
   * redeemed with the PKCE verifier, the ID token checked (signature source, audience, expiry,
   * `nonce`), and the person's claims read, from UserInfo too when the provider has it.
   */
  async finish(callback: URL, secrets: FlowSecrets): Promise<ProviderIdentity> {
    const server = await this.server()
    try {
      const parameters = oauth.validateAuthResponse(server, this.client, callback, secrets.state)
      const response = await oauth.authorizationCodeGrantRequest(
        server,
        this.client,
        this.authentication,
        parameters,
        this.settings.redirectUri,
        secrets.codeVerifier,
        this.options(),
      )
      const tokens = await oauth.processAuthorizationCodeResponse(server, this.client, response, {
        expectedNonce: secrets.nonce,
        requireIdToken: true,
      })
      const claims = oauth.getValidatedIdTokenClaims(tokens) as oauth.IDToken
      const extra = server.userinfo_endpoint
        ? await this.userInfo(server, tokens.access_token, claims.sub)
        : {}
      return this.identityOf({ ...claims, ...extra }, tokens.id_token as string)
    } catch (error) {
      if (isRefusal(error)) throw new SignInRefused(describe(error))
      throw new ProviderUnavailable(`the provider did not complete the sign-in: ${describe(error)}`)
    }
  }

  private async userInfo(server: oauth.AuthorizationServer, accessToken: string, subject: string) {
    const response = await oauth.userInfoRequest(server, this.client, accessToken, this.options())
    return oauth.processUserInfoResponse(server, this.client, subject, response)
  }

  private identityOf(claims: Record<string, unknown>, idToken: string): ProviderIdentity {
    const verified = claims.email_verified !== false
    return {
      issuer: String(claims.iss),
      subject: String(claims.sub),
      email: verified ? (text(claims.email)?.toLowerCase() ?? null) : null,
      name: text(claims.name) ?? text(claims.preferred_username),
      groups: textList(claims[this.settings.groupsClaim]),
      idToken,
    }
  }

  /**
   * Where to send a person signing out of Shiplog, so they are signed out at the provider too:
   * its end-session endpoint, when its metadata (already known: no request here) has one.
   */
  endSessionUrl(idToken: string | null): URL | undefined {
    const endpoint = this.metadata?.server.end_session_endpoint
    if (!endpoint) return undefined
    const url = new URL(endpoint)
    url.searchParams.set('client_id', this.settings.clientId)
    url.searchParams.set('post_logout_redirect_uri', this.settings.postLogoutRedirectUri)
    if (idToken) url.searchParams.set('id_token_hint', idToken)
    return url
  }
}
