import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { runProcess } from '@shiplog/db/testing'
import { gitIn, quiet, ZEROS } from '../support/git-history.ts'
import { type Harness, startHarness } from '../support/harness.ts'
import {
  createIntegration,
  deliverFlux,
  deliverGitHub,
  deliverWithBearer,
} from '../support/integrations.ts'

// A real repository's pushes reach a GitHub integration; its releases reach staging through a
// CDEvents sender and production through Flux. The DORA figures and the commits lead time
// counted must be those of the same history sent with `shiplog notify`, environment by
// environment.

const ROOT = new URL('../../../../', import.meta.url).pathname
const CLI = join(ROOT, 'packages/client/src/cli.ts')
const FLUX_EVENT = join(
  ROOT,
  'packages/integrations/fixtures/flux/events/derived/kustomization-reconciliationsucceeded.json',
)
const CDEVENT = join(
  ROOT,
  'packages/integrations/fixtures/cdevents/v0.4.1/examples/service_deployed.json',
)

let h: Harness
let dir: string
let served: { base: string; stop: () => Promise<void> }
let repository: ReturnType<typeof gitIn>
let repo: string
const shas: Record<'first' | 'second' | 'third', string> = {} as never

// Each release reaches staging, then production.
const RELEASES = [
  { sha: 'first', staging: '2026-11-02T10:00:00Z', production: '2026-11-02T15:00:00Z' },
  { sha: 'third', staging: '2026-11-05T09:00:00Z', production: '2026-11-06T09:00:00Z' },
] as const

beforeAll(async () => {
  h = await startHarness()
  served = await h.serve()
  dir = await mkdtemp(join(tmpdir(), 'shiplog-gitops-history-'))
  repo = join(dir, 'shop')
  repository = gitIn(repo)
  await repository.init(dir)
  shas.first = await repository.commit('a.txt', 'Start the shop', '2026-11-01T09:00:00Z')
  shas.second = await repository.commit('b.txt', 'Add the basket', '2026-11-03T09:00:00Z')
  shas.third = await repository.commit('c.txt', 'Fix the totals', '2026-11-04T09:00:00Z')
}, 60_000)

afterAll(async () => {
  await served?.stop()
  await h?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** The figures and counted commits of each environment over the week. */
async function holdings(key: string) {
  const held: Record<string, unknown> = {}
  for (const environment of ['staging', 'production']) {
    const window = `environment=${environment}&since=2026-11-01&until=2026-11-08`
    const commits = (await (await h.get(`/v1/commits?${window}`, { key })).json()) as {
      data: Record<string, unknown>[]
    }
    held[environment] = {
      dora: await (await h.get(`/v1/metrics/dora?${window}`, { key })).json(),
      commits: commits.data.map(({ deploymentId: _, ...rest }) => rest),
    }
  }
  return held
}

async function notified() {
  const { key } = await issueApiKey(h.sql, { workspace: 'notified', name: 'pipeline' })
  for (const release of RELEASES) {
    for (const environment of ['staging', 'production'] as const) {
      const sha = shas[release.sha]
      const run = await runProcess(
        [
          'bun',
          CLI,
          'notify',
          '--url',
          served.base,
          '--repository',
          'acme/shop',
          '--app',
          'shop',
          '--environment',
          environment,
          '--version',
          sha.slice(0, 12),
          '--commit',
          sha,
          '--deployed-at',
          release[environment],
        ],
        { cwd: repo, env: { ...quiet, NO_COLOR: '1', SHIPLOG_API_KEY: key } },
      )
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
      await h.drain()
    }
  }
  return holdings(key)
}

test('pushes, then a CDEvent into staging and a Flux event into production: the figures notify gives', async () => {
  const expected = await notified()
  const admin = (
    await issueApiKey(h.sql, { workspace: 'gitops', name: 'admin', scopes: ['admin'] })
  ).key
  const github = await createIntegration(h, admin, { source: 'github', name: 'shop pushes' })
  const cdevents = await createIntegration(h, admin, {
    source: 'cdevents',
    name: 'staging',
    mapping: { repository: 'acme/shop' },
  })
  const flux = await createIntegration(h, admin, {
    source: 'flux',
    name: 'production cluster',
    mapping: { repository: 'acme/shop', environment: 'production' },
  })
  for (const [before, after] of [
    [ZEROS, shas.first],
    [shas.first, shas.third],
  ] as const) {
    const push = await repository.pushPayload(before, after, false)
    expect((await deliverGitHub(h, github, 'push', push)).status).toBe(202)
  }
  const cdeventTemplate = JSON.parse(await readFile(CDEVENT, 'utf8'))
  const fluxTemplate = JSON.parse(await readFile(FLUX_EVENT, 'utf8'))
  for (const release of RELEASES) {
    const sha = shas[release.sha]
    // What cdviz sends for a staging deployment: the image's tag and the commit in customData.
    const cdevent = structuredClone(cdeventTemplate)
    cdevent.context.id = `staging-${sha}`
    cdevent.context.timestamp = release.staging
    cdevent.subject.content.environment.id = 'staging'
    cdevent.subject.content.artifactId = `pkg:oci/shop@sha256%3A${'0'.repeat(64)}?tag=${sha.slice(0, 12)}`
    cdevent.customData = { commit: sha }
    expect((await deliverWithBearer(h, cdevents, JSON.stringify(cdevent), {})).status).toBe(202)
    // What notification-controller posts when the production cluster reconciled the commit.
    const event = structuredClone(fluxTemplate)
    event.involvedObject.name = 'shop'
    event.timestamp = release.production
    event.metadata.revision = `main@sha1:${sha}`
    const response = await deliverFlux(h, flux, JSON.stringify(event))
    expect(response.status).toBe(202)
    await h.settle()
  }
  const held = await holdings(admin)
  // The comparison bites: lead time counted commits in both environments.
  expect((expected.production as { commits: unknown[] }).commits.length).toBeGreaterThan(1)
  expect(held).toEqual(expected)
}, 120_000)
