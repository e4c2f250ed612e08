import { beforeAll, expect, test } from 'bun:test'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'
import { parse } from 'yaml'
import { harnessPerFile } from '../support/harness.ts'
import {
  adminKey,
  createIntegration,
  deliveriesOf,
  deliverWithBearer,
} from '../support/integrations.ts'

// The Argo CD template Shiplog ships (infra/argocd/notifications-cm.yaml), rendered by Go's
// text/template as Argo CD's notifications-engine renders it (argocd-render/main.go: a missing
// key prints `<no value>`), for real Applications from public repositories
// (packages/integrations/fixtures/argocd/SOURCE.md), then posted to an Argo CD integration.

const h = harnessPerFile()
const ROOT = new URL('../../../../', import.meta.url).pathname
const STATUS = join(ROOT, 'packages/integrations/fixtures/argocd/status')
let folder: string
let renderer: string

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'shiplog-argocd-'))
  renderer = join(folder, 'render')
  const built = await runProcess(['go', 'build', '-o', renderer, 'main.go'], {
    cwd: join(import.meta.dir, 'argocd-render'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: folder,
      GOCACHE: join(folder, 'cache'),
      GOFLAGS: '-mod=mod',
    },
  })
  expect({ code: built.code, stderr: built.stderr }).toEqual({ code: 0, stderr: '' })
  const configMap = parse(await readFile(join(ROOT, 'infra/argocd/notifications-cm.yaml'), 'utf8'))
  const template = parse(configMap.data['template.shiplog-deployed'])
  await writeFile(join(folder, 'template.txt'), template.webhook.shiplog.body)
}, 120_000)

/** What Argo CD would post for `app`: the template rendered by Go's text/template. */
async function rendered(name: string, app: Record<string, unknown>): Promise<string> {
  const appFile = join(folder, `${name}.json`)
  await writeFile(appFile, JSON.stringify(app))
  const run = await runProcess([renderer, join(folder, 'template.txt'), appFile], {
    cwd: folder,
    env: {},
  })
  expect({ name, code: run.code, stderr: run.stderr }).toEqual({ name, code: 0, stderr: '' })
  return run.stdout
}

const captured = async (file: string) =>
  JSON.parse(await readFile(join(STATUS, file), 'utf8')).app as Record<string, unknown>

test('real Applications: a Git revision is recorded with its commit; a chart version never becomes one; each body is valid JSON', async () => {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, {
    source: 'argocd',
    name: 'argocd',
    mapping: {
      environment: [{ from: 'subject.content.environment.id' }, 'production'],
      repository: [{ from: 'customData.repository' }, 'acme/platform'],
    },
  })
  const singleGit = await captured('captured-008-single-git-succeeded.json')
  const byName = parse(
    await readFile(join(STATUS, 'full-app-destination-name-plugin-succeeded.yaml'), 'utf8'),
  )
  const bodies = {
    singleGit: await rendered('single-git', singleGit),
    // A destination by name and no server; labels, but none called environment.
    byName: await rendered('destination-name', byName),
    // Several sources, an OCI chart's version as the revision.
    multiSource: await rendered(
      'multi-source',
      await captured('captured-001-multisource-oci-chart-succeeded.json'),
    ),
    // One chart in spec.sources.
    chart: await rendered(
      'chart',
      await captured('captured-017-helm-sources1-succeeded-healthy.json'),
    ),
  }
  for (const [name, body] of Object.entries(bodies)) {
    expect({ name, environment: JSON.parse(body).subject.content.environment.id }).toEqual({
      name,
      environment: '<no value>',
    })
  }
  for (const body of Object.values(bodies)) {
    expect((await deliverWithBearer(h, integration, body, {})).status).toBe(202)
  }
  // Argo CD retries on errors and has no delivery id: the same sync again is a duplicate.
  expect((await deliverWithBearer(h, integration, bodies.singleGit, {})).status).toBe(200)
  await h.settle()
  const deliveries = (await deliveriesOf(h, key, integration)).reverse()
  expect(deliveries.map((each) => each.outcome)).toEqual([
    'recorded',
    'recorded',
    'recorded',
    'recorded',
    'duplicate',
  ])
  expect(deliveries[0]?.reason).toBeNull()
  // A chart's version is the revision: recorded with the commit unknown, said on the delivery.
  expect(deliveries[2]?.reason).toContain('recorded with its commit unknown')
  expect(deliveries[3]?.reason).toContain('recorded with its commit unknown')
  const receipt = async (index: number) =>
    (await h.get(deliveries[index]?.deployment as string)).json()
  for (const index of [2, 3]) {
    expect(await receipt(index)).toMatchObject({
      status: 'recorded',
      source: 'argocd',
      commitHash: null,
      commitsUnknown: 'the deployment’s own commit is unknown: its sender named none',
    })
  }
  expect(await receipt(0)).toMatchObject({
    source: 'argocd',
    repositoryFullName: 'cdviz-dev/demo-cluster',
    environment: 'production',
    app: 'aaaaaaaaa',
    version: '94fcc5e8673e',
    commitHash: '94fcc5e8673e0d2d7fbca6b1c6c455ba308314fc',
    deployedAt: '2025-10-02T16:20:59.000Z',
  })
  expect(await receipt(1)).toMatchObject({
    repositoryFullName: 'foo/manifests-velero',
    environment: 'production',
    commitHash: 'ea8759964626a583667a2bfd08f334ec2070040a',
  })
}, 60_000)

test('an environment label names the environment; without one the mapping does', async () => {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, {
    source: 'argocd',
    name: 'labelled',
    mapping: {
      environment: [{ from: 'subject.content.environment.id' }, 'production'],
      repository: 'acme/platform',
    },
  })
  const app = await captured('captured-008-single-git-succeeded.json')
  ;(app.metadata as Record<string, unknown>).labels = { environment: 'staging' }
  expect(
    (await deliverWithBearer(h, integration, await rendered('labelled', app), {})).status,
  ).toBe(202)
  await h.settle()
  const [delivery] = await deliveriesOf(h, key, integration)
  expect(await (await h.get(delivery?.deployment as string)).json()).toMatchObject({
    environment: 'staging',
  })
}, 60_000)
