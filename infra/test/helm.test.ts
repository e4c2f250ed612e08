import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import Ajv from 'ajv'
import { parse } from 'yaml'
import { comparableSet } from './lib/compare.ts'
import { CONTRACT } from './lib/contract.ts'
import {
  INTERNAL_REQUESTS,
  PUBLIC_REQUESTS,
  PUBLIC_ROUTES,
  routedRequests,
  routeTable,
} from './lib/ingress.ts'
import { schemaErrors, unknownFields } from './lib/kubernetes-schema.ts'
import { CHART, find, helm, helmTemplate, kustomize, renderChart, run } from './lib/manifests.ts'
import { POLICIES } from './lib/policy.ts'
import { knownVariables, PROCESSES } from './lib/processes.ts'
import { valuePaths } from './lib/values.ts'
import { WIRING } from './lib/wiring.ts'

const PRODUCTION_VALUES = `${CHART}/ci/production-values.yaml`
const read = (file: string) => parse(readFileSync(file, 'utf8'))
const schema = JSON.parse(readFileSync(`${CHART}/values.schema.json`, 'utf8'))
const validate = new Ajv({ allErrors: true, allowUnionTypes: true }).compile(schema)
const defaults = read(`${CHART}/values.yaml`)

/** Helm's merge of a values file over the defaults: maps merge, everything else replaces. */
function merge(base: unknown, override: unknown): unknown {
  if (!isMap(base) || !isMap(override)) return override
  const merged: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(override)) merged[key] = merge(base[key], value)
  return merged
}
function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

describe('helm chart values', () => {
  test('values.yaml validates against values.schema.json', () => {
    expect(validate(defaults) ? [] : validate.errors).toEqual([])
  })

  test('ci/production-values.yaml over values.yaml validates', () => {
    const values = merge(defaults, read(PRODUCTION_VALUES))
    expect(validate(values) ? [] : validate.errors).toEqual([])
  })

  test('the schema refuses unknown keys, unknown variables, a latest tag, non-strings, no limits', () => {
    const invalid = [
      { ...defaults, replicas: 3 },
      merge(defaults, { api: { config: { WORKER_CONCURRENCY: '4' } } }),
      merge(defaults, { api: { config: { DATABASE_URL: 'postgres://x' } } }),
      merge(defaults, { image: { tag: 'latest' } }),
      merge(defaults, { worker: { config: { WORKER_CONCURRENCY: 4 } } }),
      merge(defaults, { api: { resources: { requests: { cpu: '1' }, limits: null } } }),
    ]
    expect(invalid.map((values) => validate(values))).toEqual(invalid.map(() => false))
  })

  test('the schema refuses Ingress paths that would route /healthz, /readyz or /metrics', () => {
    const withPaths = (paths: unknown) => merge(defaults, { api: { ingress: { paths } } })
    const refused = [
      [{ path: '/', pathType: 'Prefix' }],
      [{ path: '//', pathType: 'Prefix' }],
      [{ path: '/healthz', pathType: 'Exact' }],
      [{ path: '/readyz', pathType: 'Prefix' }],
      [{ path: '/metrics/', pathType: 'Prefix' }],
      [{ path: '/ui', pathType: 'ImplementationSpecific' }],
      [{ path: '/ui' }],
      [{ path: 'ui', pathType: 'Prefix' }],
      [],
    ]
    expect(refused.map((paths) => validate(withPaths(paths)))).toEqual(refused.map(() => false))
    const accepted = [
      [{ path: '/', pathType: 'Exact' }],
      [{ path: '/healthzz', pathType: 'Prefix' }],
    ]
    expect(accepted.map((paths) => validate(withPaths(paths)))).toEqual(accepted.map(() => true))
  })

  test('each config map accepts exactly the variables its process reads, less chart-owned ones', () => {
    const accepted = (component: string) =>
      Object.keys(schema.properties[component].properties.config.properties).sort()
    const owned = [
      'DATABASE_URL',
      'DATABASE_READ_URL',
      'PORT',
      'METRICS_PORT',
      'WORKER_PORT',
      'OIDC_CLIENT_SECRET',
      'INTEGRATION_SEALING_KEY',
    ]
    const reads = (component: string) =>
      knownVariables(PROCESSES[component] as never)
        .filter((name) => !owned.includes(name))
        .sort()
    expect(accepted('api')).toEqual(reads('api'))
    expect(accepted('worker')).toEqual(reads('worker'))
    expect(accepted('migrate')).toEqual(reads('migrate'))
  })

  test('every value is commented in values.yaml and documented in the chart README', () => {
    const readme = readFileSync(`${CHART}/README.md`, 'utf8')
    const documented = [...readme.matchAll(/^\| `([A-Za-z.]+)`/gm)].map((match) => String(match[1]))
    const paths = valuePaths(readFileSync(`${CHART}/values.yaml`, 'utf8'))
    expect(paths.filter((path) => !path.commented).map((path) => path.path)).toEqual([])
    expect(paths.map((path) => path.path).sort()).toEqual(documented.sort())
  })
})

describe('helm chart rendered [needs the helm binary; skipped when it is not on PATH]', () => {
  test.skipIf(!helm)('helm lint --strict passes with defaults and with production values', () => {
    run([helm ?? 'helm', 'lint', CHART, '--strict'])
    run([helm ?? 'helm', 'lint', CHART, '--strict', '--values', PRODUCTION_VALUES])
  })

  test.skipIf(!helm)(
    'helm template output validates against the Kubernetes API schema',
    async () => {
      const objects = helmTemplate([PRODUCTION_VALUES])
      expect((await Promise.all(objects.map(schemaErrors))).flat()).toEqual([])
      expect(objects.flatMap(unknownFields)).toEqual([])
    },
  )

  test.skipIf(!helm)('helm template output passes the policy, contract and wiring checks', () => {
    const objects = helmTemplate([PRODUCTION_VALUES])
    for (const [name, check] of Object.entries({ ...POLICIES, ...CONTRACT, ...WIRING })) {
      expect({ name, violations: check(objects) }).toEqual({ name, violations: [] })
    }
  })

  test.skipIf(!helm)(
    'with production values it renders what the production overlay renders',
    () => {
      const chart = comparableSet(helmTemplate([PRODUCTION_VALUES]))
      expect(chart).toEqual(comparableSet(kustomize('production')))
    },
  )

  for (const values of [PRODUCTION_VALUES, `${import.meta.dir}/fixtures/ingress-values.yaml`]) {
    test.skipIf(!helm)(
      `with ${values.split('/').at(-1)} the Ingress routes /, /ui, /docs, /openapi.json, /cli, /v1 and /hooks to the API, never /healthz, /readyz or /metrics`,
      () => {
        const ingress = find(helmTemplate([values]), 'Ingress', 'shiplog-api')
        expect(ingress.spec.defaultBackend).toBeUndefined()
        expect(routeTable(ingress)).toEqual(
          PUBLIC_ROUTES.map((route) => ({ ...route, service: 'shiplog-api', port: 'http' })),
        )
        expect(routedRequests(ingress, PUBLIC_REQUESTS)).toEqual(PUBLIC_REQUESTS)
        expect(routedRequests(ingress, [...INTERNAL_REQUESTS, '/uix', '/docs/x', '/v1x'])).toEqual(
          [],
        )
      },
    )
  }

  test.skipIf(!helm)(
    'helm itself refuses a / Prefix or an internal path in api.ingress.paths',
    () => {
      const render = (path: string, pathType: string) => () =>
        renderChart(
          [],
          [
            'api.ingress.enabled=true',
            `api.ingress.paths[0].path=${path}`,
            `api.ingress.paths[0].pathType=${pathType}`,
          ],
        )
      expect(render('/', 'Prefix')).toThrow(/api\.ingress\.paths\.0: Must not validate/)
      expect(render('/metrics', 'Exact')).toThrow(/api\.ingress\.paths\.0\.path: Must not validate/)
      expect(render('/', 'Exact')).not.toThrow()
    },
  )

  test.skipIf(!helm)('with database.url it creates the Secret, and a hook copy for the Job', () => {
    const objects = helmTemplate([`${import.meta.dir}/fixtures/database-url-values.yaml`])
    expect(find(objects, 'Secret', 'shiplog-database').stringData.url).toStartWith('postgres://')
    const copy = find(objects, 'Secret', 'shiplog-migrate-database')
    expect(copy.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade')
    const job = find(objects, 'Job', 'shiplog-migrate').spec.template.spec.containers[0]
    expect(job.env[0].valueFrom.secretKeyRef.name).toBe('shiplog-migrate-database')
  })

  test.skipIf(!helm)(
    'with database.readUrl only the API gets DATABASE_READ_URL, from the Secret',
    () => {
      const objects = helmTemplate([`${import.meta.dir}/fixtures/database-read-url-values.yaml`])
      expect(find(objects, 'Secret', 'shiplog-database').stringData['read-url']).toStartWith(
        'postgres://',
      )
      const env = (kind: string, name: string): { name: string; valueFrom?: unknown }[] =>
        find(objects, kind, name).spec.template.spec.containers[0].env
      expect(env('Deployment', 'shiplog-api')).toContainEqual({
        name: 'DATABASE_READ_URL',
        valueFrom: { secretKeyRef: { name: 'shiplog-database', key: 'read-url' } },
      })
      expect(env('Deployment', 'shiplog-worker').map((variable) => variable.name)).toEqual([
        'DATABASE_URL',
      ])
      expect(env('Job', 'shiplog-migrate').map((variable) => variable.name)).toEqual([
        'DATABASE_URL',
      ])
    },
  )

  test.skipIf(!helm)(
    'with integrations.existingSecret the API alone gets INTEGRATION_SEALING_KEY from it, never as a value',
    () => {
      const objects = helmTemplate([`${import.meta.dir}/fixtures/integrations-values.yaml`])
      const env = (kind: string, name: string): { name: string; valueFrom?: unknown }[] =>
        find(objects, kind, name).spec.template.spec.containers[0].env
      expect(env('Deployment', 'shiplog-api')).toContainEqual({
        name: 'INTEGRATION_SEALING_KEY',
        valueFrom: { secretKeyRef: { name: 'shiplog-integrations', key: 'sealing-key' } },
      })
      expect(env('Deployment', 'shiplog-worker').map((variable) => variable.name)).toEqual([
        'DATABASE_URL',
      ])
      expect(JSON.stringify(objects)).not.toContain('"INTEGRATION_SEALING_KEY":')
    },
  )

  test.skipIf(!helm)(
    'with single sign-on the API alone gets OIDC_CLIENT_SECRET from its Secret, and may reach the provider',
    () => {
      const objects = helmTemplate([`${import.meta.dir}/fixtures/oidc-values.yaml`])
      const env = (kind: string, name: string): { name: string; valueFrom?: unknown }[] =>
        find(objects, kind, name).spec.template.spec.containers[0].env
      expect(env('Deployment', 'shiplog-api')).toContainEqual({
        name: 'OIDC_CLIENT_SECRET',
        valueFrom: { secretKeyRef: { name: 'shiplog-oidc', key: 'client-secret' } },
      })
      expect(env('Deployment', 'shiplog-worker').map((variable) => variable.name)).toEqual([
        'DATABASE_URL',
      ])
      // The secret is never a value: no Secret the chart makes holds it, no ConfigMap names it.
      const rendered = JSON.stringify(objects)
      expect(rendered).not.toContain('"OIDC_CLIENT_SECRET":')
      expect(find(objects, 'ConfigMap', 'shiplog-api').data.OIDC_ISSUER_URL).toBe(
        'https://login.example.com/realms/acme',
      )
      const ports = (name: string) =>
        find(objects, 'NetworkPolicy', name).spec.egress.flatMap(
          (rule: { ports: { port: number }[] }) => rule.ports.map((port) => port.port),
        )
      expect(ports('shiplog-api')).toContain(443)
      expect(ports('shiplog-worker')).not.toContain(443)
      expect(ports('shiplog-worker')).toEqual(ports('shiplog-migrate'))
    },
  )

  test.skipIf(!helm)(
    'an issuer without the client secret, or the other way round, fails the render',
    () => {
      const render = (values: string[]) => () => renderChart([], values)
      expect(render(['api.config.OIDC_ISSUER_URL=https://login.example.com'])).toThrow(
        /OIDC_ISSUER_URL needs oidc.existingSecret/,
      )
      expect(render(['oidc.existingSecret=shiplog-oidc'])).toThrow(
        /oidc.existingSecret is set but api.config.OIDC_ISSUER_URL is not/,
      )
      expect(render([])).not.toThrow()
    },
  )

  test.skipIf(!helm)('the helm test pod curls /readyz of the API Service, hardened', () => {
    const pod = find(helmTemplate([PRODUCTION_VALUES]), 'Pod', 'shiplog-test-connection')
    expect(pod.metadata.annotations?.['helm.sh/hook']).toBe('test')
    expect(pod.spec.containers[0].args.at(-1)).toBe('http://shiplog-api:80/readyz')
    expect(pod.spec.securityContext.runAsNonRoot).toBe(true)
    expect(pod.spec.containers[0].securityContext.readOnlyRootFilesystem).toBe(true)
  })
})
