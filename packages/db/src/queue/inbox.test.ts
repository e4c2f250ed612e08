import { beforeAll, expect, test } from 'bun:test'
import type { DeploymentJob } from '../deployment-job.ts'
import { recordDeployments } from '../queries/record-deployments.ts'
import { ensureWorkspace } from '../queries/workspaces.ts'
import { databasePerFile } from '../testing/database-per-file.ts'
import { insertIntoInbox, takeFromInbox } from './inbox.ts'

// Issue 25: the inbox a deployment waits in, and batches that neither rewrite nor lock names.

const { sql } = databasePerFile({ applicationName: 'inbox-test', maxConnections: 4 })
let workspaceId: string
beforeAll(async () => {
  workspaceId = (await ensureWorkspace(sql, 'inbox')).id
})

let made = 0
function job(
  app: string,
  environment: string,
  deployedAt = new Date().toISOString(),
): DeploymentJob {
  made++
  const ms = (Date.now() + made).toString(16).padStart(12, '0')
  return {
    id: `${ms.slice(0, 8)}-${ms.slice(8)}-7000-8000-${String(made).padStart(12, '0')}`,
    workspaceId,
    receivedAt: '2026-11-25T09:00:00.000Z',
    deployment: {
      repositoryFullName: 'acme/shop',
      environment,
      app,
      version: `v${made}`,
      commitHash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
      description: made % 2 ? 'Release' : null,
      author: null,
      deployedAt,
      // The live shape sends none; a path's instant moving is a change the row records.
      monorepoPath: app === 'steady' || made % 3 === 0 ? null : `services/${app}`,
    },
  }
}

test('a deployment comes out of the inbox as it went in, to the microsecond', async () => {
  const sent = job('checkout', 'production', '2026-11-25T08:59:59.123456Z')
  await insertIntoInbox(sql, [sent])
  const [taken] = await sql.begin((tx) => takeFromInbox(tx, 10, undefined))
  // A job that names no source is the API's.
  expect(taken).toEqual({ ...sent, source: 'api' })
})

test("an integration's source goes through the inbox to the recorded row", async () => {
  const sent = [{ ...job('hooked', 'production'), source: 'github' }, job('hooked', 'staging')]
  await insertIntoInbox(sql, sent)
  await sql.begin(async (tx) => {
    const taken = await takeFromInbox(tx, 10, undefined)
    expect(taken.map((one) => one.source)).toEqual(['github', 'api'])
    await recordDeployments(tx, taken)
  })
  const rows = await sql<{ id: string; source: string }[]>`
    select id::text, source from deployments where id = any(${sent.map((one) => one.id)}::uuid[])
     order by id`
  expect([...rows]).toEqual([
    { id: sent[0]?.id as string, source: 'github' },
    { id: sent[1]?.id as string, source: 'api' },
  ])
})

test('the inbox refuses a source that is not a lower-case name', async () => {
  const refused = insertIntoInbox(sql, [{ ...job('hooked', 'production'), source: 'GitHub' }])
  await expect(refused).rejects.toThrow(/deployment_inbox_source_name/)
})

test('shares of the streams are disjoint, cover the inbox, and keep each stream whole', async () => {
  const sent = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].flatMap((app) =>
    ['production', 'staging'].flatMap((environment) => [
      job(app, environment),
      job(app, environment),
    ]),
  )
  await insertIntoInbox(sql, sent)
  const shares = await sql.begin(async (tx) => [
    await takeFromInbox(tx, 100, undefined, { index: 0, of: 2 }),
    await takeFromInbox(tx, 100, undefined, { index: 1, of: 2 }),
  ])
  const ids = shares.flat().map((taken) => taken.id)
  expect(ids.sort()).toEqual(sent.map((one) => one.id).sort())
  const streamsOf = (share: DeploymentJob[]) =>
    new Set(share.map(({ deployment }) => `${deployment.app}/${deployment.environment}`))
  const [first, second] = shares.map(streamsOf) as [Set<string>, Set<string>]
  expect([...first].filter((stream) => second.has(stream))).toEqual([])
  expect(first.size).toBeGreaterThan(0)
  expect(second.size).toBeGreaterThan(0)
})

test('a walk starting after an id leaves earlier rows for a later walk from the first id', async () => {
  const early = job('early', 'production')
  const late = job('late', 'production')
  await insertIntoInbox(sql, [early, late])
  const [afterEarly, fromFirst] = await sql.begin(async (tx) => [
    await takeFromInbox(tx, 10, early.id),
    await takeFromInbox(tx, 10, undefined),
  ])
  expect(afterEarly?.map((taken) => taken.id)).toEqual([late.id])
  expect(fromFirst?.map((taken) => taken.id)).toEqual([early.id])
})

test('recording deployments of names that exist writes no name row and locks none', async () => {
  await sql.begin((tx) => recordDeployments(tx, [job('steady', 'production'), job('steady', 'qa')]))
  const versions = () => sql<{ row: string }[]>`
    select 'r' || id || ':' || xmin as row from repositories
    union all select 'e' || id || ':' || xmin from environments
    union all select 'a' || id || ':' || xmin from applications order by 1`
  const before = await versions()
  // Another transaction holds a batch of the same names open (another stream, as another loop's
  // share would be): this one does not wait for it.
  const holder = await sql.reserve()
  try {
    await holder`begin`
    await recordDeployments(holder as never, [job('steady', 'production')])
    await sql.begin(async (tx) => {
      await tx`set local lock_timeout = '1s'`
      await recordDeployments(tx, [job('steady', 'qa')])
    })
    await holder`commit`
  } finally {
    await holder`rollback`.catch(() => undefined)
    holder.release()
  }
  expect(await versions()).toEqual(before)
})
