import { beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { SCOPES, type Scope } from '@shiplog/schema'
import { validDeployment } from '@shiplog/schema/testing'
import type { TObject } from '@sinclair/typebox'
import type { Route } from '../../src/route-table/route.ts'
import { API_ROUTES, OTHER_ROUTES } from '../../src/routes.ts'
import { harnessPerFile } from '../support/harness.ts'

// The route table is the API's contract: what the app registers, what /openapi.json publishes and
// what each registered route checks must all be the table, route for route. A route registered
// without an entry (or in neither list), or an entry without a route, fails here.

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of the served document; the assertions narrow it
type Json = Record<string, any>

const h = harnessPerFile()
let document: Json
const keys = new Map<Scope, string>()
beforeAll(async () => {
  document = await (await h.get('/openapi.json', { key: null })).json()
  for (const scope of SCOPES) {
    const issued = await issueApiKey(h.sql, {
      workspace: 'route-table',
      name: scope,
      scopes: [scope],
      rateLimitPerMinute: 1_000_000,
    })
    keys.set(scope, issued.key)
  }
})

const operationName = (method: string, path: string) => `${method.toUpperCase()} ${path}`
const tableNames = API_ROUTES.map((route) => operationName(route.method, route.path))

/** What Elysia registered, paths in OpenAPI form. */
function registered(): string[] {
  const names = h.api.app.routes.map((route) =>
    operationName(route.method, route.path.replace(/:(\w+)/g, '{$1}')),
  )
  return [...new Set(names)].sort()
}

const matches = (other: (typeof OTHER_ROUTES)[number], name: string) => {
  const [method, path] = name.split(' ') as [string, string]
  const under = other.path.endsWith('/*') ? other.path.slice(0, -2) : undefined
  const pathMatches = under ? path === under || path.startsWith(`${under}/`) : path === other.path
  return pathMatches && (other.method === '*' || other.method === method)
}

test('every route the app registers is in the route table or in the list of other routes, and every entry of either is registered', () => {
  const served = registered()
  const unlisted = served.filter(
    (name) => !tableNames.includes(name) && !OTHER_ROUTES.some((other) => matches(other, name)),
  )
  expect(unlisted).toEqual([])
  expect(tableNames.filter((name) => !served.includes(name))).toEqual([])
  const unserved = OTHER_ROUTES.filter((other) => !served.some((name) => matches(other, name)))
  expect(unserved).toEqual([])
  expect(new Set(tableNames).size).toBe(tableNames.length)
  // Only the contract lives under /v1, and the other routes stay outside it.
  expect(tableNames.every((name) => name.includes(' /v1/'))).toBe(true)
  expect(OTHER_ROUTES.filter((other) => other.path.startsWith('/v1'))).toEqual([])
})

test('/openapi.json publishes exactly the route table: paths, methods and operation ids', () => {
  const published = Object.entries<Json>(document.paths).flatMap(([path, methods]) =>
    Object.entries<Json>(methods).map(
      ([method, operation]) => `${operationName(method, path)} ${operation.operationId}`,
    ),
  )
  expect(published.sort()).toEqual(
    API_ROUTES.map(
      (route) => `${operationName(route.method, route.path)} ${route.operationId}`,
    ).sort(),
  )
})

const parameterRows = (schema: TObject | undefined, where: string) =>
  Object.keys(schema?.properties ?? {}).map((name) => ({
    name,
    in: where,
    required: where === 'path' || (schema?.required ?? []).includes(name),
  }))

const operationOf = (route: Route): Json => document.paths[route.path][route.method.toLowerCase()]

test('each operation’s parameters are its route’s path, query and header schemas, every required one with an example', () => {
  for (const route of API_ROUTES) {
    const where = operationName(route.method, route.path)
    const query = route.query === 'ignored' ? undefined : route.query
    const expected = [
      ...parameterRows(route.params, 'path'),
      ...parameterRows(query, 'query'),
      ...parameterRows(route.headers?.schema, 'header'),
    ]
    const parameters: Json[] = operationOf(route).parameters ?? []
    expect({
      where,
      parameters: parameters.map(({ name, in: at, required }) => ({ name, in: at, required })),
    }).toEqual({ where, parameters: expected })
    for (const parameter of parameters.filter((parameter) => parameter.required)) {
      expect({ where, parameter: parameter.name, example: typeof parameter.example }).toEqual({
        where,
        parameter: parameter.name,
        example: 'string',
      })
    }
  }
})

test('each operation answers what its route declares, plus 401, 403 and, when it reads a body, 400, 408 and 413', () => {
  for (const route of API_ROUTES) {
    const expected = [
      ...Object.keys(route.answers),
      '401',
      '403',
      ...(route.body ? ['400', '408', '413'] : []),
    ]
    expect({
      where: operationName(route.method, route.path),
      statuses: Object.keys(operationOf(route).responses).sort(),
      body: Boolean(operationOf(route).requestBody),
    }).toEqual({
      where: operationName(route.method, route.path),
      statuses: [...new Set(expected)].sort(),
      body: Boolean(route.body),
    })
  }
})

/** The operation's path with every path parameter set to its published example. */
function examplePath(operation: Json, path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name) => {
    const parameter = operation.parameters.find((candidate: Json) => candidate.name === name)
    return encodeURIComponent(String(parameter.example))
  })
}

/** The operation's required query parameters, set to their published examples. */
function exampleQuery(operation: Json): URLSearchParams {
  const query = new URLSearchParams()
  for (const parameter of operation.parameters) {
    if (parameter.in === 'query' && parameter.required) query.set(parameter.name, parameter.example)
  }
  return query
}

const otherScope = (scope: Scope): Scope => (scope === 'read' ? 'deployments:write' : 'read')

test('every registered route enforces the scope, query and path its entry declares, and its examples make a request it documents', async () => {
  for (const route of API_ROUTES) {
    const where = operationName(route.method, route.path)
    const operation = operationOf(route)
    const path = examplePath(operation, route.path)
    const query = exampleQuery(operation)
    const send = (url: string, scope: Scope) =>
      h.send(route.method, url, { key: keys.get(scope) as string })
    const withQuery = (extra: URLSearchParams) => (extra.size > 0 ? `${path}?${extra}` : path)

    // Without a body, with the published examples: an answer the document lists.
    const plain = await send(withQuery(query), 'admin')
    expect({ where, documented: String(plain.status) in operation.responses }).toEqual({
      where,
      documented: true,
    })

    const refused = await send(withQuery(query), otherScope(route.scope))
    expect({
      where,
      status: refused.status,
      scope: (await refused.json()).detail.includes(route.scope),
    }).toEqual({ where, status: 403, scope: true })

    const unknown = new URLSearchParams(query)
    unknown.set('unknownParameter', '1')
    const extra = await send(withQuery(unknown), 'admin')
    const fields = (await extra.json()).errors?.map((error: Json) => error.field) ?? []
    expect({ where, unknownRefused: fields.includes('unknownParameter') }).toEqual({
      where,
      unknownRefused: route.query !== 'ignored',
    })

    for (const name of Object.keys(route.params?.properties ?? {})) {
      // Refused by every kind of path parameter: not an id, and no name (a control character).
      const bad = route.path.replace(`{${name}}`, 'not-an-id%01').replace(/\{\w+\}/g, 'x')
      const response = await send(bad + (query.size > 0 ? `?${query}` : ''), 'admin')
      const errors = (await response.json()).errors ?? []
      expect({
        where,
        status: response.status,
        named: errors.some((e: Json) => e.field === name),
      }).toEqual({ where, status: 422, named: true })
    }
  }
})

/**
 * Runs `work` with every route's handler replaced by one that records what it was handed, so a
 * test sees whether a request reached its handler at all. The registrar calls `route.handle` at
 * each request, so the swap needs no new app; the handlers are put back after.
 */
async function withRecordedHandlers(work: (reached: Map<Route, unknown[]>) => Promise<void>) {
  const reached = new Map<Route, unknown[]>()
  const handlers = API_ROUTES.map((route) => route.handle)
  API_ROUTES.forEach((route) => {
    const recording = route as { handle: Route['handle'] }
    recording.handle = (input) => {
      reached.set(route, [...(reached.get(route) ?? []), input.body])
      // Each route's one 2xx, with a body its answer may carry: what is sent back is not asserted.
      return {}
    }
  })
  try {
    await work(reached)
  } finally {
    API_ROUTES.forEach((route, index) => {
      ;(route as { handle: Route['handle'] }).handle = handlers[index] as Route['handle']
    })
  }
}

const bodiedRoutes = API_ROUTES.filter((route) => route.body !== undefined)

test('each declared body is checked before its handler runs: a body its check refuses never reaches the handler', async () => {
  expect(bodiedRoutes.length).toBeGreaterThanOrEqual(6)
  await withRecordedHandlers(async (reached) => {
    for (const route of bodiedRoutes) {
      const where = operationName(route.method, route.path)
      const path = examplePath(operationOf(route), route.path)
      const key = keys.get('admin') as string
      // JSON, but refused by every check: each body is a JSON object of known fields.
      for (const body of [[], { notAField: 'x' }, 'text', null]) {
        const response = await h.send(route.method, path, { key, body })
        const problem = await response.json()
        expect({ where, body, status: response.status, type: problem.type }).toEqual({
          where,
          body,
          status: 422,
          type: '/problems/validation-failed',
        })
        expect({ where, errors: problem.errors.length > 0 }).toEqual({ where, errors: true })
      }
    }
    expect([...reached.keys()].map((route) => route.operationId)).toEqual([])
  })
})

test('a body its check accepts reaches the handler as the check left it, and a bad declared header stops it too', async () => {
  const createDeployment = API_ROUTES.find((route) => route.operationId === 'createDeployment')
  await withRecordedHandlers(async (reached) => {
    const key = keys.get('deployments:write') as string
    const sent = validDeployment({ commitHash: 'A94A8FE5CCB19BA61C4C0873D391E987982FBBD3' })
    const refused = await h.send('POST', '/v1/deployments', {
      key,
      body: { ...sent, app: '' },
      headers: { 'idempotency-key': 'two words' },
    })
    expect(refused.status).toBe(422)
    expect((await refused.json()).errors.map((error: Json) => error.field)).toEqual([
      'app',
      'Idempotency-Key',
    ])
    const badHeader = await h.send('POST', '/v1/deployments', {
      key,
      body: sent,
      headers: { 'idempotency-key': 'two words' },
    })
    expect(badHeader.status).toBe(422)
    expect(reached.size).toBe(0)

    const accepted = await h.send('POST', '/v1/deployments', { key, body: sent })
    expect(accepted.status).toBe(202)
    const [handed] = reached.get(createDeployment as Route) ?? []
    expect(handed).toMatchObject({
      value: { commitHash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3', app: sent.app },
      deployedAtDefaulted: true,
    })
  })
})
