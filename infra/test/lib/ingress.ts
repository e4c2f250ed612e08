import type { K8sObject } from './manifests.ts'

/** A path rule of an Ingress, as networking.k8s.io/v1 has it. */
export interface IngressRoute {
  path: string
  pathType: string
  backend: { service: { name: string; port: { name?: string; number?: number } } }
}

/**
 * The API's public paths, in the order both renderers list them: `/` (a redirect to the
 * dashboard), the dashboard under `/ui` (its pages and `/ui/assets/...`), the API reference, its
 * OpenAPI document, the CLI that pipelines download, the API itself and the integrations'
 * receivers, where GitHub and GitLab post.
 */
export const PUBLIC_ROUTES = [
  { path: '/', pathType: 'Exact' },
  { path: '/ui', pathType: 'Prefix' },
  { path: '/docs', pathType: 'Exact' },
  { path: '/openapi.json', pathType: 'Exact' },
  { path: '/cli', pathType: 'Prefix' },
  { path: '/v1', pathType: 'Prefix' },
  { path: '/hooks', pathType: 'Prefix' },
] as const

/** Requests the API answers for the cluster only (probes, metrics), which no Ingress may route. */
export const INTERNAL_REQUESTS = [
  '/healthz',
  '/healthz/',
  '/readyz',
  '/readyz/',
  '/metrics',
  '/metrics/',
  '/metrics/x',
]

/** Requests a cluster user makes, each of which some public route must carry. */
export const PUBLIC_REQUESTS = [
  '/',
  '/ui',
  '/ui/',
  '/ui/deployments',
  '/ui/assets/app.css',
  '/docs',
  '/openapi.json',
  '/cli/shiplog.mjs',
  '/cli/shiplog.mjs.sha256',
  '/v1/deployments',
]

/** Every path rule of every rule of an Ingress. */
export function ingressRoutes(ingress: K8sObject): IngressRoute[] {
  return (ingress.spec.rules ?? []).flatMap(
    (rule: { http?: { paths: IngressRoute[] } }) => rule.http?.paths ?? [],
  )
}

const elements = (path: string) => path.split('/').filter((element) => element !== '')

/**
 * Whether a path rule matches a request path, as Kubernetes defines it: Exact compares the whole
 * path; Prefix compares path elements, ignoring a trailing slash (`/ui` matches `/ui`, `/ui/` and
 * `/ui/x`, not `/uix`; `/` matches everything). Any other pathType (ImplementationSpecific) is
 * up to the controller, so it counts as matching: a check built on this then refuses it.
 */
export function matches(route: { path: string; pathType: string }, request: string): boolean {
  if (route.pathType === 'Exact') return route.path === request
  if (route.pathType !== 'Prefix') return true
  const prefix = elements(route.path)
  const path = elements(request)
  return prefix.length <= path.length && prefix.every((element, i) => element === path[i])
}

/** An Ingress's path rules as a table: path, pathType, and the Service and port they reach. */
export function routeTable(ingress: K8sObject) {
  return ingressRoutes(ingress).map(({ path, pathType, backend: { service } }) => ({
    path,
    pathType,
    service: service.name,
    port: service.port.name ?? service.port.number,
  }))
}

/** The requests of a list that any of an Ingress's path rules would route. */
export function routedRequests(ingress: K8sObject, requests: string[]): string[] {
  return requests.filter((request) =>
    ingressRoutes(ingress).some((route) => matches(route, request)),
  )
}
