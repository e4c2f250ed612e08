// Postgres that fails over (issue 42): the chart's database.cloudnativepg and the Kustomize
// component render a CloudNativePG Cluster, checked against the operator's own CRD (fetched into
// fixtures/cloudnative-pg, its source in SOURCE.md), and point Shiplog's processes at it.
import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { IEnvVar } from 'kubernetes-models/v1'
import { comparableSet } from './lib/compare.ts'
import { CONTRACT } from './lib/contract.ts'
import { customResourceValidator } from './lib/custom-resource.ts'
import { schemaErrors, unknownFields } from './lib/kubernetes-schema.ts'
import {
  CHART,
  find,
  helm,
  helmTemplate,
  type K8sObject,
  kustomize,
  ofKind,
  parseManifests,
  renderChart,
  run,
  workloads,
} from './lib/manifests.ts'
import { POLICIES } from './lib/policy.ts'
import { WIRING } from './lib/wiring.ts'

const FIXTURES = join(import.meta.dir, 'fixtures')
const CRD = `${FIXTURES}/cloudnative-pg/postgresql.cnpg.io_clusters.yaml`
const VALUES = `${FIXTURES}/cloudnative-pg-values.yaml`
const PRODUCTION_VALUES = `${CHART}/ci/production-values.yaml`
const validateCluster = customResourceValidator(CRD)

const withComponent = () =>
  parseManifests(run(['kubectl', 'kustomize', `${FIXTURES}/kustomize-with-cloudnative-pg`]))
// Each render, and whether it is skipped (helm missing).
const renders: [string, () => K8sObject[], boolean][] = [
  [
    'the chart with database.cloudnativepg.enabled [needs helm]',
    () => helmTemplate([VALUES]),
    !helm,
  ],
  ['the production overlay with the component', withComponent, false],
]

/** The operator's Secret `<cluster>-app` as CloudNativePG writes it (pkg/specs/secrets.go). */
function operatorSecret(cluster: string, password: string): Record<string, string> {
  return {
    username: 'shiplog',
    user: 'shiplog',
    password,
    dbname: 'shiplog',
    host: `${cluster}-rw`,
    port: '5432',
    uri: `postgresql://shiplog:${password}@${cluster}-rw.shiplog:5432/shiplog`,
  }
}

/**
 * A container's variables as Kubernetes sets them: Secret keys looked up, `$(NAME)` in a value
 * replaced by a variable listed before it (`$$` escapes a `$`; an unknown name stays as written).
 */
function environment(
  env: IEnvVar[],
  secrets: Record<string, Record<string, string>>,
): Map<string, string> {
  const resolved = new Map<string, string>()
  for (const variable of env) {
    const ref = variable.valueFrom?.secretKeyRef
    const value = ref
      ? secrets[ref.name ?? '']?.[ref.key]
      : (variable.value ?? '').replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (match, name) =>
          match === '$$' ? '$' : (resolved.get(name) ?? match),
        )
    if (value === undefined) throw new Error(`${variable.name}: no such Secret key ${ref?.key}`)
    resolved.set(variable.name, value)
  }
  return resolved
}

function containerEnv(objects: K8sObject[], kind: string, name: string): IEnvVar[] {
  return find(objects, kind, name).spec.template.spec.containers[0].env
}

describe('the CRD fixture', () => {
  test('is the file SOURCE.md names, unchanged', () => {
    const source = readFileSync(`${FIXTURES}/cloudnative-pg/SOURCE.md`, 'utf8')
    const recorded = /sha256: `([0-9a-f]{64})`/.exec(source)?.[1]
    const actual = createHash('sha256').update(readFileSync(CRD)).digest('hex')
    expect(actual).toBe(recorded as string)
    expect(source).toContain('config/crd/bases/postgresql.cnpg.io_clusters.yaml')
  })

  test('the validator refuses a broken Cluster: wrong types, unknown fields, enums, CEL rules', () => {
    const cluster = ofKind(withComponent(), 'Cluster')
    expect(cluster).toHaveLength(1)
    const broken = structuredClone(cluster[0] as K8sObject)
    broken.spec.instances = 'three'
    broken.spec.postgresql.synchronus = { method: 'any', number: 1 }
    broken.spec.postgresql.synchronous.dataDurability = 'always'
    broken.spec.postgresql.synchronous.number = 0
    delete broken.spec.postgresql.synchronous.method
    expect(validateCluster(broken)).toEqual([
      'Cluster/shiplog-postgres: /spec/instances: must be integer',
      'Cluster/shiplog-postgres: /spec/postgresql: unknown field synchronus',
      "Cluster/shiplog-postgres: /spec/postgresql/synchronous: must have required property 'method'",
      'Cluster/shiplog-postgres: /spec/postgresql/synchronous/dataDurability: must be equal to one of the allowed values',
      'Cluster/shiplog-postgres: /spec/postgresql/synchronous/number: The number of synchronous replicas should be greater than zero',
    ])
    const preferred = structuredClone(cluster[0] as K8sObject)
    preferred.spec.postgresql.synchronous.dataDurability = 'preferred'
    preferred.spec.postgresql.synchronous.standbyNamesPre = ['elsewhere']
    expect(validateCluster(preferred)).toEqual([
      "Cluster/shiplog-postgres: /spec/postgresql/synchronous: dataDurability set to 'preferred' requires empty 'standbyNamesPre' and empty 'standbyNamesPost'",
    ])
  })
})

describe('off by default', () => {
  test.skipIf(!helm)(
    'the chart renders no Cluster, and migrates before the release [needs helm]',
    () => {
      for (const objects of [helmTemplate([]), helmTemplate([PRODUCTION_VALUES])]) {
        expect(ofKind(objects, 'Cluster')).toEqual([])
        const job = find(objects, 'Job', 'shiplog-migrate')
        expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade')
        expect(job.spec.template.spec.initContainers).toBeUndefined()
      }
    },
  )

  test('the overlays render no Cluster', () => {
    expect(ofKind(kustomize('production'), 'Cluster')).toEqual([])
    expect(ofKind(kustomize('dev'), 'Cluster')).toEqual([])
  })
})

for (const [name, render, skipped] of renders) {
  describe(name, () => {
    test.skipIf(skipped)(
      'renders exactly one Cluster, which validates against the operator’s CRD',
      () => {
        const clusters = ofKind(render(), 'Cluster')
        expect(clusters.map((cluster) => `${cluster.apiVersion} ${cluster.metadata.name}`)).toEqual(
          ['postgresql.cnpg.io/v1 shiplog-postgres'],
        )
        expect(clusters.flatMap(validateCluster)).toEqual([])
        // The operator's webhook, not its CRD, wants a DNS-1035 label of at most 50 characters.
        expect(clusters[0]?.metadata.name).toMatch(/^[a-z]([-a-z0-9]{0,48}[a-z0-9])?$/)
      },
    )

    test.skipIf(skipped)(
      'three instances; a commit waits for one standby, and failover promotes only one that has it',
      () => {
        const { spec } = find(render(), 'Cluster', 'shiplog-postgres')
        expect(spec.instances).toBe(3)
        expect(spec.postgresql.synchronous).toEqual({
          method: 'any',
          number: 1,
          dataDurability: 'required',
          failoverQuorum: true,
        })
        // synchronous_commit is left at Postgres's default, on: a commit waits for the standby.
        expect(spec.postgresql.parameters.synchronous_commit).toBeUndefined()
        expect(spec.bootstrap).toEqual({ initdb: { database: 'shiplog', owner: 'shiplog' } })
        expect(spec.storage.size).toBe('10Gi')
        expect(spec.resources.requests.memory).toBe(spec.resources.limits.memory)
      },
    )

    test.skipIf(skipped)(
      'the API writes through -rw and reads from -ro; the worker and the migration write through -rw',
      () => {
        const objects = render()
        const password = 'N9dZq2R7xKp4W8mT6vB3cY5hJ1fL0sGa'
        const secrets = { 'shiplog-postgres-app': operatorSecret('shiplog-postgres', password) }
        const resolve = (kind: string, workload: string) =>
          environment(containerEnv(objects, kind, workload), secrets)
        const api = resolve('Deployment', 'shiplog-api')
        const write = new URL(api.get('DATABASE_URL') ?? '')
        const read = new URL(api.get('DATABASE_READ_URL') ?? '')
        expect([write.hostname, read.hostname]).toEqual([
          'shiplog-postgres-rw.shiplog',
          'shiplog-postgres-ro',
        ])
        for (const url of [write, read]) {
          expect(url.protocol).toBe('postgresql:')
          expect([url.username, url.password, url.port, url.pathname]).toEqual([
            'shiplog',
            password,
            '5432',
            '/shiplog',
          ])
        }
        for (const [kind, workload] of [
          ['Deployment', 'shiplog-worker'],
          ['Job', 'shiplog-migrate'],
        ] as const) {
          const variables = resolve(kind, workload)
          expect([...variables.keys()]).toEqual(['DATABASE_URL'])
          expect(variables.get('DATABASE_URL')).toBe(api.get('DATABASE_URL') as string)
        }
      },
    )

    test.skipIf(skipped)(
      'needs no database Secret of the user’s: every Secret it reads is the operator’s',
      () => {
        const objects = render()
        expect(ofKind(objects, 'Secret')).toEqual([])
        const read = workloads(objects).flatMap(({ containers }) =>
          containers.flatMap((container) => [
            ...(container.env ?? []).map((variable) => variable.valueFrom?.secretKeyRef?.name),
            ...(container.envFrom ?? []).map((from) => from.secretRef?.name),
          ]),
        )
        expect(new Set(read.filter(Boolean))).toEqual(new Set(['shiplog-postgres-app']))
      },
    )

    test.skipIf(skipped)(
      'Shiplog’s own objects still pass the Kubernetes schema, policy, contract and wiring checks',
      async () => {
        const objects = render()
        const shiplog = objects.filter((object) => object.kind !== 'Cluster')
        expect((await Promise.all(shiplog.map(schemaErrors))).flat()).toEqual([])
        expect(shiplog.flatMap(unknownFields)).toEqual([])
        for (const [check, violations] of Object.entries({ ...POLICIES, ...CONTRACT, ...WIRING })) {
          expect({ check, violations: violations(objects) }).toEqual({ check, violations: [] })
        }
      },
    )

    test.skipIf(skipped)(
      'the migration first waits until the primary takes connections, then runs',
      async () => {
        const job = find(render(), 'Job', 'shiplog-migrate').spec.template.spec
        const [wait, ...more] = job.initContainers
        expect(more).toEqual([])
        expect(wait.name).toBe('wait-for-postgres')
        expect(wait.image).toBe(job.containers[0].image)
        const [bun, flag, script] = wait.command
        expect([bun, flag]).toEqual(['bun', '-e'])
        expect(script).toContain("hostname: 'shiplog-postgres-rw', port: 5432")
        // The same script with the Service's address swapped for a local port, run by Bun.
        const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
        const port = server.port
        server.stop(true)
        const local = script
          .replace("'shiplog-postgres-rw'", "'127.0.0.1'")
          .replace('port: 5432', `port: ${port}`)
        const waiting = Bun.spawn([process.execPath, '-e', local])
        try {
          // Nothing listens yet: it is still waiting after its first attempts (2 s apart).
          const early = await Promise.race([waiting.exited, Bun.sleep(2500).then(() => 'waiting')])
          expect(early).toBe('waiting')
          let connected!: () => void
          const accepted = new Promise<void>((resolve) => {
            connected = resolve
          })
          const primary = Bun.listen({
            hostname: '127.0.0.1',
            port,
            socket: { open: () => connected(), data() {} },
          })
          try {
            await accepted
            expect(await waiting.exited).toBe(0)
          } finally {
            primary.stop(true)
          }
        } finally {
          waiting.kill()
        }
      },
    )
  })
}

describe('the chart’s settings [needs helm]', () => {
  test.skipIf(!helm)('helm lint --strict passes with the Cluster on', () => {
    run([helm ?? 'helm', 'lint', CHART, '--strict', '--values', VALUES])
  })

  test.skipIf(!helm)(
    'on first install the migration hooks run after the Cluster exists; before an upgrade as ever',
    () => {
      const objects = helmTemplate([VALUES])
      const hooks = objects
        .filter((object) => object.metadata.annotations?.['helm.sh/hook'] !== 'test')
        .filter((object) => object.metadata.annotations?.['helm.sh/hook'])
        .map(
          (object) =>
            `${object.kind}/${object.metadata.name} ${object.metadata.annotations?.['helm.sh/hook']}`,
        )
      expect(hooks.sort()).toEqual([
        'ConfigMap/shiplog-migrate post-install,pre-upgrade',
        'Job/shiplog-migrate post-install,pre-upgrade',
      ])
      // The Cluster is a release object: a hook would be recreated, its volumes with it.
      expect(find(objects, 'Cluster', 'shiplog-postgres').metadata.annotations).toBeUndefined()
    },
  )

  test.skipIf(!helm)('the values set the image, storage, resources and settings', () => {
    const cluster = find(
      helmTemplate(
        [VALUES],
        [
          'database.cloudnativepg.imageName=ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie',
          'database.cloudnativepg.storage.size=50Gi',
          'database.cloudnativepg.storage.storageClass=fast-ssd',
          'database.cloudnativepg.resources.limits.memory=4Gi',
          'database.cloudnativepg.resources.requests.memory=4Gi',
          'database.cloudnativepg.parameters.work_mem=16MB',
        ],
      ),
      'Cluster',
      'shiplog-postgres',
    )
    expect(validateCluster(cluster)).toEqual([])
    const { spec } = cluster
    expect(spec.imageName).toBe('ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie')
    expect(spec.storage).toEqual({ size: '50Gi', storageClass: 'fast-ssd' })
    expect(spec.resources.limits.memory).toBe('4Gi')
    expect(spec.postgresql.parameters).toEqual({ max_connections: '400', work_mem: '16MB' })
  })

  test.skipIf(!helm)(
    'a database Secret or URL of the user’s beside the Cluster fails the render',
    () => {
      const render = (set: string[]) => () =>
        renderChart([], ['database.cloudnativepg.enabled=true', ...set])
      for (const set of [
        ['database.existingSecret=shiplog-database'],
        ['database.url=postgres://shiplog:secret@postgres.example.com:5432/shiplog'],
        ['database.readSecretKey=read-url'],
      ]) {
        expect(render(set)).toThrow(
          /leave database.existingSecret, url, readSecretKey and readUrl empty/,
        )
      }
      expect(render([])).not.toThrow()
      expect(render(['fullnameOverride=an-installation-whose-name-is-longer-than-most'])).toThrow(
        /over the operator's 50 characters/,
      )
    },
  )
})

describe('the component and the chart', () => {
  test.skipIf(!helm)(
    'with the production overlay it renders what the chart renders with production values and the Cluster on [needs helm]',
    () => {
      const chart = helmTemplate([PRODUCTION_VALUES, VALUES])
      expect(comparableSet(chart)).toEqual(comparableSet(withComponent()))
    },
  )
})
