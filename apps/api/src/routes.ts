import { auditRoutes } from './modules/audit/index.ts'
import { catalogRoutes } from './modules/catalog/index.ts'
import { commitRoutes } from './modules/commits/index.ts'
import { compareRoutes } from './modules/compare/index.ts'
import { deploymentRoutes } from './modules/deployments/index.ts'
import { doraRoutes } from './modules/dora/index.ts'
import { incidentRoutes } from './modules/incidents/index.ts'
import { integrationRoutes } from './modules/integrations/index.ts'
import type { Route } from './route-table/route.ts'

/**
 * The route table: every `/v1` route, its contract and its handler. The app registers these
 * (`route-table/register.ts`) and `/openapi.json` publishes them (`route-table/openapi.ts`), in
 * this order. It sits above the features it lists; the framework in `route-table/` knows none.
 */
export const API_ROUTES: readonly Route[] = [
  ...deploymentRoutes,
  ...catalogRoutes,
  ...compareRoutes,
  ...doraRoutes,
  ...commitRoutes,
  ...incidentRoutes,
  ...auditRoutes,
  ...integrationRoutes,
]

/** A route outside the API's contract: not under `/v1`, not in `/openapi.json`. */
export interface OtherRoute {
  /** `*`: any method. */
  method: 'GET' | 'POST' | '*'
  /** A path ending in `/*` stands for itself (`/ui`) and every path under it. */
  path: string
  /** Who calls it, and why it is not in the OpenAPI document. */
  for: string
}

/** Every route the app serves besides the API's: a test fails for a route in neither list. */
export const OTHER_ROUTES: readonly OtherRoute[] = [
  { method: 'GET', path: '/healthz', for: 'the cluster: liveness probe' },
  { method: 'GET', path: '/readyz', for: 'the cluster: readiness probe' },
  { method: 'GET', path: '/openapi.json', for: 'clients: the document itself' },
  { method: 'GET', path: '/docs', for: 'people: the document, rendered' },
  { method: 'GET', path: '/', for: 'people: redirects to the dashboard' },
  {
    method: 'GET',
    path: '/robots.txt',
    for: 'crawlers: nothing is hidden (every page needs a session)',
  },
  {
    method: '*',
    path: '/ui/*',
    for: 'people: the dashboard, signed in through single sign-on or with a read key',
  },
  {
    method: 'POST',
    path: '/hooks/*',
    for: 'senders: GitHub and GitLab webhooks of an integration, proved by its secret, not a key',
  },
  {
    method: 'GET',
    path: '/cli/shiplog.mjs',
    for: 'pipelines: the shiplog CLI, served by the Shiplog it reports to',
  },
  {
    method: 'GET',
    path: '/cli/shiplog.mjs.sha256',
    for: 'pipelines: the SHA-256 of the CLI bundle, to pin or check it',
  },
]

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&')

// Each path of both tables as a pattern: `{id}` is one segment, a trailing `/*` any rest.
const PATHS: { pattern: RegExp; method: string }[] = [
  ...API_ROUTES.map(({ method, path }) => ({ method, path })),
  ...OTHER_ROUTES,
].map(({ method, path }) => {
  const rest = path.endsWith('/*')
  const stem = escapeRegExp(rest ? path.slice(0, -2) : path).replace(/\{\w+\}/g, '[^/]+')
  return { method, pattern: new RegExp(`^${stem}${rest ? '(?:/.*)?' : ''}$`) }
})

/**
 * The methods the app takes at `path`, from the route tables: empty for a path it does not know,
 * or one that takes any method (so a wrong method there is a 404 of that route's own).
 */
export function methodsAt(path: string): string[] {
  const methods = new Set(PATHS.filter(({ pattern }) => pattern.test(path)).map((p) => p.method))
  return methods.has('*') ? [] : [...methods].sort()
}
