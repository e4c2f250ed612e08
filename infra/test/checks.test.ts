import { describe, expect, test } from 'bun:test'
import { CONTRACT } from './lib/contract.ts'
import { matches } from './lib/ingress.ts'
import { schemaErrors, unknownFields } from './lib/kubernetes-schema.ts'
import { find, type K8sObject, kustomize, ofKind } from './lib/manifests.ts'
import { POLICIES } from './lib/policy.ts'
import { WIRING } from './lib/wiring.ts'

// The checks must fail on broken manifests, or their passing proves nothing: each case breaks
// one thing in a copy of the production render and expects the violation it causes.
const all = { ...POLICIES, ...CONTRACT, ...WIRING }

function broken(change: (objects: K8sObject[]) => void): K8sObject[] {
  const objects = structuredClone(kustomize('production'))
  change(objects)
  return objects
}
const api = (objects: K8sObject[]) =>
  find(objects, 'Deployment', 'shiplog-api').spec.template.spec.containers[0]
const apiPod = (objects: K8sObject[]) => find(objects, 'Deployment', 'shiplog-api').spec.template
const apiConfig = (objects: K8sObject[]) =>
  ofKind(objects, 'ConfigMap').find((map) => map.metadata.name.startsWith('shiplog-api-'))?.data
const violations = (objects: K8sObject[]) => Object.values(all).flatMap((check) => check(objects))

describe('the checks catch what they are for', () => {
  test('the unbroken render has no violations', () => {
    expect(violations(kustomize('production'))).toEqual([])
  })

  const cases: [string, (objects: K8sObject[]) => void, RegExp][] = [
    [
      'a writable root filesystem',
      (o) => delete api(o).securityContext.readOnlyRootFilesystem,
      /readOnlyRootFilesystem/,
    ],
    [
      'an added capability',
      (o) => (api(o).securityContext.capabilities.add = ['NET_ADMIN']),
      /adds capabilities/,
    ],
    ['a missing memory limit', (o) => delete api(o).resources.limits.memory, /no memory limit/],
    [
      'a request above its limit',
      (o) => (api(o).resources.requests.cpu = '2'),
      /cpu request 2 exceeds/,
    ],
    [
      'a wrong readiness path',
      (o) => (api(o).readinessProbe.httpGet.path = '/ready'),
      /readinessProbe path/,
    ],
    ['no liveness probe', (o) => delete api(o).livenessProbe, /no HTTP livenessProbe/],
    ['a latest image', (o) => (api(o).image = 'ghcr.io/shiplog/shiplog:latest'), /not pinned/],
    ['another command', (o) => (api(o).command = ['bun', 'apps/api/src/serve.ts']), /command/],
    [
      'a variable of another process',
      (o) => ((apiConfig(o) ?? {}).WORKER_CONCURRENCY = '4'),
      /sets WORKER_CONCURRENCY/,
    ],
    [
      'a literal DATABASE_URL',
      (o) => (api(o).env = [{ name: 'DATABASE_URL', value: 'postgres://x' }]),
      /not taken from a Secret/,
    ],
    [
      'PORT not matching the container port',
      (o) => ((apiConfig(o) ?? {}).PORT = '8080'),
      /PORT is 8080/,
    ],
    [
      'metrics on the public port',
      (o) => ((apiConfig(o) ?? {}).METRICS_PORT = '3000'),
      /METRICS_PORT is the public port 3000/,
    ],
    [
      'no container port for METRICS_PORT',
      (o) => (api(o).ports = api(o).ports.filter((p: { name: string }) => p.name !== 'metrics')),
      /shiplog-api: no container port named metrics/,
    ],
    [
      'a scrape annotation on the public port',
      (o) => (apiPod(o).metadata.annotations['prometheus.io/port'] = '3000'),
      /prometheus.io\/port is 3000, but \/metrics is on METRICS_PORT 9091/,
    ],
    [
      'an Ingress to the metrics port',
      (o) => {
        find(o, 'Service', 'shiplog-api').spec.ports.push({
          name: 'metrics',
          port: 9091,
          targetPort: 'metrics',
        })
        const path = find(o, 'Ingress', 'shiplog-api').spec.rules[0].http.paths[0]
        path.backend.service.port = { name: 'metrics' }
      },
      /an Ingress routes to the metrics port metrics/,
    ],
    [
      'an Ingress route of / by Prefix, which routes /healthz, /readyz and /metrics',
      (o) => (find(o, 'Ingress', 'shiplog-api').spec.rules[0].http.paths[0].pathType = 'Prefix'),
      /Prefix \/ routes \/healthz/,
    ],
    [
      'an Ingress route of /metrics',
      (o) =>
        find(o, 'Ingress', 'shiplog-api').spec.rules[0].http.paths.push({
          path: '/metrics',
          pathType: 'Exact',
          backend: { service: { name: 'shiplog-api', port: { name: 'http' } } },
        }),
      /Exact \/metrics routes \/metrics/,
    ],
    [
      'an Ingress with a defaultBackend',
      (o) =>
        (find(o, 'Ingress', 'shiplog-api').spec.defaultBackend = {
          service: { name: 'shiplog-api', port: { name: 'http' } },
        }),
      /a defaultBackend routes every path/,
    ],
    [
      'an Ingress without the dashboard',
      (o) => find(o, 'Ingress', 'shiplog-api').spec.rules[0].http.paths.splice(1, 1),
      /does not route Prefix \/ui/,
    ],
    [
      'an Ingress route of /docs by Prefix',
      (o) => (find(o, 'Ingress', 'shiplog-api').spec.rules[0].http.paths[2].pathType = 'Prefix'),
      /routes Prefix \/docs, which is not one of the API's public paths/,
    ],
    [
      'an Ingress route to the worker',
      (o) =>
        (find(o, 'Ingress', 'shiplog-api').spec.rules[0].http.paths.find(
          (route: { path: string }) => route.path === '/v1',
        ).backend.service = {
          name: 'shiplog-worker',
          port: { name: 'metrics' },
        }),
      /Prefix \/v1 does not reach the API's http port/,
    ],
    [
      'a shutdown longer than the grace period',
      (o) => ((apiConfig(o) ?? {}).SHUTDOWN_DELAY_MS = '15000'),
      /35000 ms of shutdown/,
    ],
    ['no /tmp volume', (o) => (api(o).volumeMounts = []), /no \/tmp/],
    [
      'no egress to Postgres',
      (o) => find(o, 'NetworkPolicy', 'shiplog-api').spec.egress.shift(),
      /no egress to Postgres/,
    ],
    [
      'an Ingress to a missing port',
      (o) =>
        (find(o, 'Ingress', 'shiplog-api').spec.rules[0].http.paths[0].backend.service.port.name =
          'web'),
      /no Service port/,
    ],
  ]
  for (const [name, change, expected] of cases) {
    test(name, () => {
      expect(violations(broken(change)).join('\n')).toMatch(expected)
    })
  }

  test('the route matcher follows Kubernetes: Exact whole paths, Prefix by path element', () => {
    const ui = { path: '/ui', pathType: 'Prefix' }
    expect(['/ui', '/ui/', '/ui/assets/app.css'].map((path) => matches(ui, path))).toEqual([
      true,
      true,
      true,
    ])
    expect(['/uix', '/', '/u'].map((path) => matches(ui, path))).toEqual([false, false, false])
    const root = { path: '/', pathType: 'Exact' }
    expect(['/', '/healthz', ''].map((path) => matches(root, path))).toEqual([true, false, false])
    const everything = { path: '/', pathType: 'Prefix' }
    expect(['/healthz', '/metrics'].map((path) => matches(everything, path))).toEqual([true, true])
    expect(matches({ path: '/docs', pathType: 'Exact' }, '/docs/')).toBe(false)
    expect(matches({ path: '/v1/', pathType: 'Prefix' }, '/v1')).toBe(true)
    expect(matches({ path: '/ui', pathType: 'ImplementationSpecific' }, '/healthz')).toBe(true)
  })

  test('a field the API does not know (readinesProbe)', () => {
    const objects = broken((o) => (api(o).readinesProbe = {}))
    expect(unknownFields(find(objects, 'Deployment', 'shiplog-api'))).toEqual([
      'Deployment/shiplog-api.spec.template.spec.containers[0].readinesProbe',
    ])
  })

  test('a value of the wrong type (containerPort "http")', async () => {
    const objects = broken((o) => (api(o).ports[0].containerPort = 'http'))
    const errors = await schemaErrors(find(objects, 'Deployment', 'shiplog-api'))
    expect(errors.join('\n')).toMatch(/containerPort must be integer/)
  })
})
