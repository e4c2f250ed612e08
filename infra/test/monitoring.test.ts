// Scraping and dashboards for kube-prometheus-stack: the chart's PodMonitor, ServiceMonitor and
// Grafana dashboard ConfigMaps (off by default), the Kustomize component that holds the same
// objects, the Prometheus Operator's CRD schemas, and the dashboards themselves: typed by
// @grafana/schema, every expression parsed by the real promtool, every series one Shiplog exports.
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { comparableSet } from './lib/compare.ts'
import {
  DASHBOARDS,
  dashboardExpressions,
  dashboardMetricNames,
  dashboards,
  withSampleValues,
} from './lib/dashboards.ts'
import { dashboardTypeErrors } from './lib/grafana-schema.ts'
import { customResourceFieldErrors, schemaErrors, unknownFields } from './lib/kubernetes-schema.ts'
import {
  CHART,
  find,
  helm,
  helmTemplate,
  type K8sObject,
  kustomize,
  ofKind,
  parseManifests,
  REPO,
  run,
  selects,
} from './lib/manifests.ts'
import { metricNames, promtoolCheck } from './lib/promql.ts'

const FIXTURES = join(import.meta.dir, 'fixtures')
const PRODUCTION_VALUES = `${CHART}/ci/production-values.yaml`
const COMPONENT = `${REPO}infra/k8s/components/monitoring`
const MONITORING_KINDS = ['PodMonitor', 'ServiceMonitor']
const isDashboard = (object: K8sObject) =>
  object.kind === 'ConfigMap' && object.metadata.labels?.grafana_dashboard === '1'
const monitoringObjects = (objects: K8sObject[]) =>
  objects.filter((object) => MONITORING_KINDS.includes(object.kind) || isDashboard(object))

/** Names of the metrics the API, the worker and the shared pool gauge declare in their source. */
function declaredMetrics(): Set<string> {
  const names = new Set<string>()
  for (const folder of ['apps/api/src', 'apps/worker/src', 'packages/db/src']) {
    const files = readdirSync(`${REPO}${folder}`, { recursive: true }) as string[]
    for (const file of files.filter((each) => /(?<!\.test)\.ts$/.test(each))) {
      const text = readFileSync(`${REPO}${folder}/${file}`, 'utf8')
      for (const [, name] of text.matchAll(/'(shiplog_[a-z_]+)'/g)) names.add(name as string)
    }
  }
  return names
}

describe('the dashboards', () => {
  test('each validates against @grafana/schema’s Dashboard and its panels’ plugin types', () => {
    for (const { file, json } of dashboards()) {
      expect({ file, errors: dashboardTypeErrors(json) }).toEqual({ file, errors: [] })
    }
  })

  test('every PromQL expression parses with promtool, Grafana’s variables given sample values', () => {
    const expressions = dashboards().flatMap(({ json }) =>
      dashboardExpressions(json).map(({ name, expr }) => ({
        name,
        expr: withSampleValues(expr, json),
      })),
    )
    expect(expressions.filter(({ expr }) => expr.includes('$'))).toEqual([])
    expect(promtoolCheck(expressions)).toEqual({
      code: 0,
      output: expect.stringContaining(`SUCCESS: ${expressions.length} rules found`),
    })
  })

  test('every series they read is declared by the API or the worker, or is a DORA gauge to come', () => {
    const declared = declaredMetrics()
    const names = dashboardMetricNames()
    expect(names.length).toBeGreaterThan(20)
    const family = (name: string) => name.replace(/_(bucket|sum|count)$/, '')
    expect(names.filter((name) => !declared.has(family(name)))).toEqual([])
  })

  test('metricNames reads series, not functions, aggregations, label lists, keywords, strings or durations', () => {
    const expr = `histogram_quantile(0.99, sum by (le, route) (rate(a_bucket{x="y{}", z=~"b"}[5m])))
      / on(job) group_left(foo) b offset 5m > bool 1e3 and job:c:rate5m or max without (f) (d)
      unless label_replace(e, "g", "$1", "h", "(.*)") + count(up) * vector(1)`
    expect(metricNames(expr)).toEqual(['a_bucket', 'b', 'job:c:rate5m', 'd', 'e', 'up'])
  })

  test('the checks refuse a misspelt field, an unknown enum value and a broken expression', () => {
    const broken = structuredClone(dashboards()[0]?.json) as unknown as {
      graphTooltip: number
      panels: { options?: Record<string, unknown>; targets?: { expr: string }[] }[]
    }
    broken.graphTooltip = 7
    const panel = broken.panels.find((each) => each.targets) as (typeof broken.panels)[0]
    panel.options = { ...panel.options, legnd: true }
    expect(dashboardTypeErrors(broken as never)).toEqual([
      expect.stringContaining("Type '7' is not assignable"),
      expect.stringContaining('\'"legnd"\' does not exist'),
    ])
    const unparsable = [{ name: 'broken', expr: 'sum(rate(x[$__rate_interval]))' }]
    expect(promtoolCheck(unparsable).code).toBe(1)
  })
})

describe('the chart’s monitors and dashboards [needs the helm binary; skipped when it is not on PATH]', () => {
  const rendered = () =>
    helmTemplate([`${FIXTURES}/monitoring-values.yaml`, `${FIXTURES}/prometheus-rule-values.yaml`])

  test.skipIf(!helm)('off by default and in production values: nothing extra renders', () => {
    expect(monitoringObjects(helmTemplate([]))).toEqual([])
    expect(monitoringObjects(helmTemplate([PRODUCTION_VALUES]))).toEqual([])
    expect(helmTemplate([]).filter((object) => object.metadata.labels?.grafana_dashboard)).toEqual(
      [],
    )
  })

  test.skipIf(!helm)('on: helm lint --strict passes', () => {
    run([
      helm ?? 'helm',
      'lint',
      CHART,
      '--strict',
      '--values',
      `${FIXTURES}/monitoring-values.yaml`,
    ])
  })

  test.skipIf(!helm)(
    'on: the API’s pods on their metrics port, the workers through their Service, as jobs shiplog-api and shiplog-worker, with the labels and timing asked for',
    () => {
      const objects = rendered()
      const api = find(objects, 'Deployment', 'shiplog-api').spec.template
      const pods = find(objects, 'PodMonitor', 'shiplog-api')
      expect(selects(pods.spec.selector, api.metadata.labels)).toBe(true)
      const [endpoint, ...more] = pods.spec.podMetricsEndpoints
      expect(more).toEqual([])
      expect(api.spec.containers[0].ports).toContainEqual(
        expect.objectContaining({ name: endpoint.port, containerPort: 9091 }),
      )
      const service = find(objects, 'Service', 'shiplog-worker')
      const workers = find(objects, 'ServiceMonitor', 'shiplog-worker')
      expect(selects(workers.spec.selector, service.metadata.labels ?? {})).toBe(true)
      expect(service.spec.ports.map((port: { name: string }) => port.name)).toContain(
        workers.spec.endpoints[0].port,
      )
      for (const [monitor, job] of [
        [pods, 'shiplog-api'],
        [workers, 'shiplog-worker'],
      ] as const) {
        expect(monitor.metadata.labels?.release).toBe('kube-prometheus-stack')
        const [only] = monitor.spec.podMetricsEndpoints ?? monitor.spec.endpoints
        expect(only).toMatchObject({ path: '/metrics', interval: '30s', scrapeTimeout: '10s' })
        expect(only.relabelings).toEqual([
          { action: 'replace', targetLabel: 'job', replacement: job },
        ])
      }
    },
  )

  test.skipIf(!helm)(
    'on: the PrometheusRule and the monitors pass the operator’s CRD schemas, with no field they lack',
    async () => {
      const custom = rendered().filter((object) => object.apiVersion === 'monitoring.coreos.com/v1')
      expect(custom.map((object) => object.kind).sort()).toEqual([
        'PodMonitor',
        'PrometheusRule',
        'ServiceMonitor',
      ])
      expect((await Promise.all(custom.map(schemaErrors))).flat()).toEqual([])
      expect(customResourceFieldErrors(custom)).toEqual([])
      const misspelt = structuredClone(custom)
      for (const object of misspelt) object.spec.intervall = '30s'
      expect(customResourceFieldErrors(misspelt)).toHaveLength(3)
    },
  )

  test.skipIf(!helm)(
    'on: a ConfigMap per dashboard file, labelled for the sidecar, holding the file unchanged',
    async () => {
      const maps = rendered().filter(isDashboard)
      const files = dashboards()
      expect(maps.map((map) => map.metadata.name).sort()).toEqual(
        files.map(({ file }) => `shiplog-dashboard-${file.replace(/^shiplog-|\.json$/g, '')}`),
      )
      for (const map of maps) {
        expect(map.metadata.namespace).toBe('monitoring')
        expect(map.metadata.annotations).toEqual({ grafana_folder: 'Shiplog' })
        const entries = Object.entries(map.data) as [string, string][]
        expect(entries).toHaveLength(1)
        const [file, text] = entries[0] as [string, string]
        expect(text).toBe(readFileSync(`${DASHBOARDS}/${file}`, 'utf8'))
        expect(() => JSON.parse(text)).not.toThrow()
        // A ConfigMap holds at most 1 MiB.
        expect(text.length).toBeLessThan(1024 * 1024)
      }
      expect((await Promise.all(maps.map(schemaErrors))).flat()).toEqual([])
      expect(maps.flatMap(unknownFields)).toEqual([])
    },
  )

  test.skipIf(!helm)(
    'the sidecar label is configurable, and monitors without the worker Service fail the render',
    () => {
      const render = (values: string[]) => helmTemplate([], values)
      const maps = render([
        'metrics.grafanaDashboards.enabled=true',
        'metrics.grafanaDashboards.label=dashboards',
        'metrics.grafanaDashboards.labelValue=shiplog',
      ]).filter((object) => object.metadata.labels?.dashboards === 'shiplog')
      expect(maps).toHaveLength(dashboards().length)
      expect(() =>
        render(['metrics.monitors.enabled=true', 'worker.service.enabled=false']),
      ).toThrow(/metrics.monitors.enabled needs worker.service.enabled/)
    },
  )
})

describe('the Kustomize component', () => {
  const withMonitoring = () =>
    parseManifests(run(['kubectl', 'kustomize', `${FIXTURES}/kustomize-with-monitoring`]))

  test('holds the chart’s dashboards, byte for byte', () => {
    const copies = readdirSync(`${COMPONENT}/dashboards`).sort()
    expect(copies).toEqual(dashboards().map(({ file }) => file))
    for (const { file, text } of dashboards()) {
      expect({
        file,
        same: readFileSync(`${COMPONENT}/dashboards/${file}`, 'utf8') === text,
      }).toEqual({ file, same: true })
    }
  })

  test('renders nothing unless an overlay adds it; the fixture overlays pass the schemas, CRDs included', async () => {
    expect(monitoringObjects(kustomize('production'))).toEqual([])
    const objects = [
      ...withMonitoring(),
      ...ofKind(
        parseManifests(run(['kubectl', 'kustomize', `${FIXTURES}/kustomize-with-rules`])),
        'PrometheusRule',
      ),
    ]
    expect(
      monitoringObjects(objects)
        .map((object) => object.kind)
        .sort(),
    ).toEqual(['ConfigMap', 'ConfigMap', 'PodMonitor', 'ServiceMonitor'])
    expect((await Promise.all(objects.map(schemaErrors))).flat()).toEqual([])
    const core = objects.filter((object) => !object.apiVersion.startsWith('monitoring.coreos.com/'))
    expect(core.flatMap(unknownFields)).toEqual([])
    expect(customResourceFieldErrors(objects)).toEqual([])
  })

  test.skipIf(!helm)(
    'with the production overlay it renders what the chart renders with production values and the flags on [needs helm]',
    () => {
      const chart = helmTemplate([PRODUCTION_VALUES, `${FIXTURES}/monitoring-on-values.yaml`])
      expect(comparableSet(chart)).toEqual(comparableSet(withMonitoring()))
      const labels = (objects: K8sObject[]) =>
        objects.filter(isDashboard).map((map) => map.metadata.labels?.grafana_dashboard)
      expect(labels(withMonitoring())).toEqual(labels(chart))
    },
  )
})
