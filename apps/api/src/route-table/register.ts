import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { NoQuery } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { problems } from '../kernel/problems.ts'
import type { auth } from '../plugins/auth/index.ts'
import { requireScope } from '../plugins/auth/scopes.ts'
import type { rateLimit } from '../plugins/rate-limit/index.ts'
import { type BodyLimits, readJsonBody, readOptionalJsonBody } from './json-body.ts'
import { pathOf, queryOf } from './parameters.ts'
import type { BodyDeclaration, CheckResult, Route, RouteContract, RouteDeps } from './route.ts'

/** What the registrar needs besides what the handlers need. */
export interface RegistrarDeps extends RouteDeps {
  bodyLimits: BodyLimits
  authenticated: ReturnType<typeof auth>
  limited: ReturnType<typeof rateLimit>
}

/** The part of Elysia's context a route handler reads (and no more, so Elysia parses no more). */
interface Context {
  request: Request
  owner: KeyOwner
  params: Record<string, string>
  set: { headers: Record<string, unknown>; status?: number | string }
}

/** Elysia's form of an OpenAPI path: `/v1/deployments/:id`. */
export const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1')

/** The one 2xx status a route answers when its handler returns. */
export function successStatus(route: RouteContract): number {
  const statuses = Object.keys(route.answers)
    .map(Number)
    .filter((status) => status < 300)
  if (statuses.length !== 1) {
    throw new Error(`${route.operationId} must declare exactly one 2xx answer: it has ${statuses}`)
  }
  return statuses[0] as number
}

function bodyReader(body: BodyDeclaration | undefined, limits: BodyLimits) {
  if (!body) return undefined
  const bounded = body.maxBytes === undefined ? limits : { ...limits, maxBytes: body.maxBytes }
  const read = body.optional ? readOptionalJsonBody : readJsonBody
  return (request: Request) => read(request, bounded, body.expected)
}

/** The errors of the checks that failed, body first. */
const failures = (...results: (CheckResult | undefined)[]) =>
  results.flatMap((result) => (result && !result.ok ? result.errors : []))

/** A check's success without its `ok`, as its handler is handed it. */
function passed(result: CheckResult | undefined): unknown {
  if (!result) return undefined
  const { ok: _, ...value } = result
  return value
}

/**
 * A route's handler wrapped in the checks its contract declares, in the contract's order:
 * authentication (401) and the rate limit (429) ran before, as the plugins' derive; then the
 * scope (403), the query and the path (422), the body (413, 408, 400, 422), the body's and the
 * headers' checks (one 422 listing every failing field); then the handler, with what they passed.
 */
function checked(route: Route, deps: RegistrarDeps) {
  const status = successStatus(route)
  const readBody = bodyReader(route.body, deps.bodyLimits)
  const querySchema = route.query === 'ignored' ? undefined : (route.query ?? NoQuery)
  const pathSchema = route.params
  const { scope } = route
  // Destructured, not read off the context: Elysia builds only what a handler names.
  return async ({ request, owner, params, set }: Context) => {
    const receivedAt = new Date()
    requireScope(owner, scope)
    const query = querySchema ? queryOf(querySchema, request) : {}
    const path = pathSchema ? pathOf(pathSchema, params) : {}
    const json = readBody ? await readBody(request) : undefined
    const body = route.body?.check(json, receivedAt)
    const headers = route.headers?.check(request.headers)
    const errors = failures(body, headers)
    if (errors.length > 0) throw problems.validation(errors)
    const answer = await route.handle(
      {
        owner,
        query,
        params: path,
        body: passed(body),
        headers: passed(headers),
        request,
        answerHeaders: set.headers,
        receivedAt,
      },
      deps,
    )
    if (status !== 200) set.status = status
    return answer
  }
}

/**
 * The `/v1` routes of `routes` as an Elysia app behind authentication and the rate limit. Bodies
 * are never parsed by Elysia (`parse: 'none'`): they are read after the scope check, by hand.
 */
export function registerRoutes(routes: readonly Route[], deps: RegistrarDeps) {
  const app = new Elysia().use(deps.authenticated).use(deps.limited)
  for (const route of routes) {
    app.route(route.method, routerPath(route.path), checked(route, deps), { parse: 'none' })
  }
  return app
}
