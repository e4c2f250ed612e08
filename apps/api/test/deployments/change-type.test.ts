import { expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

// changeType of every deployment of one application in one environment, through the receipts and
// the list, for a history written out by hand, then again after a backfill arrives last.

const h = harnessPerFile()

const C1 = 'c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1'
const C2 = 'c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2'
const C3 = 'c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3'
const C0 = 'c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0'

const deploy = (
  version: string,
  commitHash: string,
  deployedAt: string,
  environment = 'production',
) => h.deploy(validDeployment({ version, commitHash, deployedAt, environment }))

async function changeTypes(): Promise<Record<string, string>> {
  const response = await h.get('/v1/deployments?environment=production&limit=100')
  const page = (await response.json()) as { data: { version: string; changeType: string }[] }
  return Object.fromEntries(page.data.map(({ version, changeType }) => [version, changeType]))
}

test('initial, redeploy, forward and rollback, by deployedAt whatever the arrival order', async () => {
  const ids = {
    v1: await deploy('v1', C1, '2026-05-01T10:00:00Z'), // nothing before: initial
    v1again: await deploy('v1-again', C1, '2026-05-02T10:00:00Z'), // same commit as v1: redeploy
    v2: await deploy('v2', C2, '2026-05-03T10:00:00Z'), // a new commit: forward
    v3: await deploy('v3', C3, '2026-05-04T10:00:00Z'), // a new commit: forward
    back: await deploy('back-to-v2', C2, '2026-05-05T10:00:00Z'), // v2's commit, not v3's: rollback
  }
  // Another environment's history is its own: C3 first there is initial.
  await deploy('v3-staging', C3, '2026-05-04T11:00:00Z', 'staging')
  // The queued receipt has no change type yet.
  expect((await (await h.get(`/v1/deployments/${ids.v1}`)).json()).changeType).toBeNull()
  await h.drain()
  expect(await changeTypes()).toEqual({
    v1: 'initial',
    'v1-again': 'redeploy',
    v2: 'forward',
    v3: 'forward',
    'back-to-v2': 'rollback',
  })
  expect((await (await h.get(`/v1/deployments/${ids.back}`)).json()).changeType).toBe('rollback')
  const staging = await (await h.get('/v1/deployments?environment=staging')).json()
  expect(staging.data[0].changeType).toBe('initial')

  // A backfill of an older deployment arrives last: it is the initial one now, and v1 moves
  // forward from it.
  await deploy('v0-backfill', C0, '2026-04-30T10:00:00Z')
  await h.drain()
  expect(await changeTypes()).toEqual({
    'v0-backfill': 'initial',
    v1: 'forward',
    'v1-again': 'redeploy',
    v2: 'forward',
    v3: 'forward',
    'back-to-v2': 'rollback',
  })
  expect((await (await h.get(`/v1/deployments/${ids.v1}`)).json()).changeType).toBe('forward')
})

test('?changeType= lists exactly the deployments of that type, with every other filter and across pages', async () => {
  const all = (await (await h.get('/v1/deployments?limit=100')).json()).data as {
    id: string
    changeType: string
    environment: string
  }[]
  expect(new Set(all.map((deployment) => deployment.changeType))).toEqual(
    new Set(['initial', 'redeploy', 'rollback', 'forward']),
  )
  for (const type of ['initial', 'redeploy', 'rollback', 'forward']) {
    for (const filters of [
      '',
      '&environment=production',
      '&app=checkout',
      '&repository=acme/shop',
    ]) {
      const expected = all
        .filter((d) => d.changeType === type)
        .filter((d) => !filters.includes('production') || d.environment === 'production')
        .map((d) => d.id)
      // A page of one, so the cursor is walked too.
      const seen: string[] = []
      let cursor = ''
      do {
        const response = await h.get(
          `/v1/deployments?changeType=${type}${filters}&limit=1${cursor}`,
        )
        expect(response.status).toBe(200)
        const page = await response.json()
        seen.push(...page.data.map((d: { id: string }) => d.id))
        cursor = page.nextCursor ? `&cursor=${page.nextCursor}` : ''
      } while (cursor)
      expect({ type, filters, seen }).toEqual({ type, filters, seen: expected })
    }
  }
  const queued = await h.get('/v1/deployments?changeType=forward&status=queued')
  expect(queued.status).toBe(422)
  expect((await queued.json()).errors[0].field).toBe('changeType')
  expect((await h.get('/v1/deployments?changeType=sideways')).status).toBe(422)
})
