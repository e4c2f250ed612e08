import { describe, expect, test } from 'bun:test'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { Elysia } from 'elysia'
import { problemDetails } from '../problem/index.ts'
import { AddressLimiter } from '../rate-limit/address-limiter.ts'
import { auth, type KeyLookup } from './index.ts'

const VALID_KEY = `shiplog_${'v'.repeat(43)}`
const UNKNOWN_KEY = `shiplog_${'u'.repeat(43)}`
const OWNER: KeyOwner = {
  keyId: '7',
  workspaceId: '1',
  workspaceSlug: 'acme',
  scopes: ['deployments:write', 'read'],
  rateLimitPerMinute: null,
}

/** Keys in memory: one valid key, and a count of the lookups that reached "Postgres". */
function keys() {
  const store = {
    lookups: 0,
    cachedOwner: () => undefined,
    mightBeValid: (key: string) => key.startsWith('shiplog_') && key.length === 51,
    mayExist: async (key: string) => key === VALID_KEY,
    verify: async (key: string) => {
      store.lookups++
      return key === VALID_KEY ? OWNER : undefined
    },
  } satisfies KeyLookup & { lookups: number }
  return store
}

/** An app with only auth (and the problem plugin, which renders its refusals). */
function appWith(store: KeyLookup, addressBudget = 10) {
  const authenticated = auth(
    store,
    new AddressLimiter({ capacity: addressBudget, perMinute: addressBudget }),
    () => '203.0.113.7',
  )
  return new Elysia()
    .use(problemDetails(() => {}))
    .use(authenticated)
    .get('/whoami', ({ owner }) => ({ workspace: owner.workspaceSlug }))
}

const get = (app: ReturnType<typeof appWith>, authorization?: string) =>
  app.handle(
    new Request('http://shiplog.test/whoami', {
      headers: authorization ? { authorization } : {},
    }),
  )

describe('auth', () => {
  test('a valid bearer key reaches the route with its workspace', async () => {
    const response = await get(appWith(keys()), `Bearer ${VALID_KEY}`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ workspace: 'acme' })
  })

  test('no key: 401 problem saying how to send one, with WWW-Authenticate', async () => {
    const response = await get(appWith(keys()))
    expect(response.status).toBe(401)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="shiplog"')
    const body = await response.json()
    expect(body).toMatchObject({ type: '/problems/unauthorized', status: 401 })
    expect(body.detail).toContain('Authorization: Bearer <key>')
  })

  test('a malformed key is refused without a lookup; an unknown one after it', async () => {
    const store = keys()
    const app = appWith(store)
    const malformed = await get(app, 'Bearer not-a-key')
    expect(malformed.status).toBe(401)
    expect((await malformed.json()).detail).toContain('not valid')
    expect(store.lookups).toBe(0)
    const unknown = await get(app, `Bearer ${UNKNOWN_KEY}`)
    expect(unknown.status).toBe(401)
    expect(store.lookups).toBe(1)
  })

  test('past the address budget, bad keys get 429 with Retry-After; a valid key still gets in', async () => {
    const app = appWith(keys(), 2)
    expect((await get(app)).status).toBe(401)
    expect((await get(app, `Bearer ${UNKNOWN_KEY}`)).status).toBe(401)
    const refused = await get(app, `Bearer ${UNKNOWN_KEY}`)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({ type: '/problems/rate-limited', status: 429 })
    expect((await get(app)).status).toBe(429)
    expect((await get(app, `Bearer ${VALID_KEY}`)).status).toBe(200)
  })
})
