// A real OpenID provider (the `oidc-provider` package) for the sign-in tests, run as a process of
// its own so a test can stop it as an outage would. It serves two people in two groups, asks for
// a password on a page of its own (no external font or script: the test network is closed), and
// prints `{"issuer": …}` once it listens. Settings come as one JSON argument.
import { generateKeyPairSync } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import Provider, { type KoaContextWithOIDC } from 'oidc-provider'
import { PEOPLE } from './people.ts'

interface Settings {
  port: number
  clientId: string
  clientSecret: string
  redirectUri: string
  postLogoutRedirectUri: string
}

const settings = JSON.parse(process.argv[2] ?? '{}') as Settings
const issuer = `http://127.0.0.1:${settings.port}`
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })

const escapeText = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
      redirect_uris: [settings.redirectUri],
      post_logout_redirect_uris: [settings.postLogoutRedirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig' }] },
  cookies: { keys: ['shiplog-test-provider-cookies'] },
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name'],
    groups: ['groups'],
  },
  scopes: ['openid', 'email', 'profile', 'groups'],
  async findAccount(_context: KoaContextWithOIDC, id: string) {
    const person = PEOPLE[id as keyof typeof PEOPLE]
    if (!person) return undefined
    return {
      accountId: id,
      claims: async () => ({
        sub: id,
        email: person.email,
        email_verified: true,
        name: person.name,
        groups: [...person.groups],
      }),
    }
  },
  // A first-party client: consent is implied, as identity providers are set up for internal tools.
  async loadExistingGrant(context: KoaContextWithOIDC) {
    const oidc = context.oidc
    if (!oidc.client || !oidc.session?.accountId) return undefined
    const existing = oidc.session.grantIdFor(oidc.client.clientId)
    if (existing) return oidc.provider.Grant.find(existing)
    const grant = new oidc.provider.Grant({
      clientId: oidc.client.clientId,
      accountId: oidc.session.accountId,
    })
    grant.addOIDCScope('openid email profile groups')
    await grant.save()
    return grant
  },
  interactions: {
    url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
  },
  features: {
    devInteractions: { enabled: false },
    rpInitiatedLogout: {
      enabled: true,
      logoutSource: async (context: KoaContextWithOIDC, form: string) => {
        context.body = page(
          'Sign out of the test provider?',
          `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>`,
        )
      },
      postLogoutSuccessSource: async (context: KoaContextWithOIDC) => {
        context.body = page('Signed out', '<p>You are signed out of the test provider.</p>')
      },
    },
  },
  renderError: async (context: KoaContextWithOIDC, out: object) => {
    context.type = 'html'
    context.body = page('Provider error', `<pre>${escapeText(JSON.stringify(out))}</pre>`)
  },
})

function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let text = ''
    request.on('data', (chunk) => {
      text += chunk
    })
    request.on('end', () => resolve(new URLSearchParams(text)))
    request.on('error', reject)
  })
}

/** The provider's login page and its post: a password per person, nothing else. */
async function interaction(request: IncomingMessage, response: ServerResponse, uid: string) {
  const details = await provider.interactionDetails(request, response)
  if (details.uid !== uid) throw new Error('interaction mismatch')
  if (request.method === 'POST') {
    const form = await readForm(request)
    const login = form.get('login') ?? ''
    const person = PEOPLE[login as keyof typeof PEOPLE]
    if (person && form.get('password') === person.password) {
      await provider.interactionFinished(request, response, { login: { accountId: login } })
      return
    }
  }
  response.setHeader('content-type', 'text/html; charset=utf-8')
  response.end(
    page(
      'Test provider sign-in',
      `<form method="post" action="/interaction/${escapeText(uid)}">
<label>Username <input name="login" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in to the provider</button></form>`,
    ),
  )
}

const handle = provider.callback()
const server = createServer((request, response) => {
  const match = /^\/interaction\/([^/?]+)/.exec(request.url ?? '')
  if (!match) return handle(request, response)
  interaction(request, response, match[1] as string).catch((error) => {
    response.statusCode = 400
    response.end(String(error))
  })
})
server.listen(settings.port, '127.0.0.1', () => {
  console.log(JSON.stringify({ issuer }))
})
process.on('SIGTERM', () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
