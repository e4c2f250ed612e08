import { beforeAll, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

// GET /v1/compare on a scripted history: what staging has that production does not, as JSON and
// as release notes, computed here by hand.

const h = harnessPerFile()

const sha = (name: string) => Buffer.from(name).toString('hex').padEnd(40, '0').slice(0, 40)
const WEB = 'https://github.com/acme/shop'

interface Step {
  environment: string
  commit: string
  at: string
  /** The commits its list names, newest first; none sends no list at all. */
  delivered?: { name: string; at: string; subject?: string; author?: string }[]
  app?: string
  repository?: string
}

/** Records a deployment and its commit list; resolves with its id. */
async function deploy(step: Step): Promise<string> {
  const id = await h.deploy(
    validDeployment({
      app: step.app ?? 'checkout',
      repositoryFullName: step.repository ?? 'acme/shop',
      environment: step.environment,
      version: `v-${step.commit}`,
      commitHash: sha(step.commit),
      deployedAt: step.at,
    }),
  )
  if (step.delivered) {
    const commits = step.delivered.map((commit) => ({
      sha: sha(commit.name),
      committedAt: commit.at,
      authoredAt: commit.at,
      reverts: [],
      ...(commit.subject ? { subject: commit.subject } : {}),
      ...(commit.author ? { author: commit.author } : {}),
    }))
    const put = await h.send('PUT', `/v1/deployments/${id}/commits`, {
      body: { commits, webUrl: WEB },
    })
    expect(put.status).toBe(204)
  }
  await h.drain()
  return id
}

const compare = (query: string, accept?: string) =>
  h.get(`/v1/compare?${query}`, accept ? { headers: { accept } } : {})

/** May <day>, 2026, at <hour>:00 UTC. */
const at = (day: number, hour: number) => `2026-05-0${day}T${String(hour).padStart(2, '0')}:00:00Z`
// The commits the lists name, with their subjects and authors.
const gifts = { name: 'c2', at: at(2, 8), subject: 'Add gift cards', author: 'Grace' }
const fix = { name: 'c3', at: at(3, 8), subject: 'Fix the *total*', author: 'Ada' }
const tidy = { name: 'x3', at: at(3, 7), subject: 'Tidy [styles]' }
const faster = { name: 'c4', at: at(4, 8), subject: 'Faster search', author: 'Ada' }

let c3: string
let c4: string
beforeAll(async () => {
  // Production ran c1 then c2; staging ran c1, c2, then c3 (with x3) and c4.
  await deploy({ environment: 'production', commit: 'c1', at: at(1, 10) })
  await deploy({ environment: 'staging', commit: 'c1', at: at(1, 9) })
  await deploy({ environment: 'staging', commit: 'c2', at: at(2, 9), delivered: [gifts] })
  await deploy({ environment: 'production', commit: 'c2', at: at(2, 10), delivered: [gifts] })
  c3 = await deploy({ environment: 'staging', commit: 'c3', at: at(3, 9), delivered: [fix, tidy] })
  c4 = await deploy({ environment: 'staging', commit: 'c4', at: at(4, 9), delivered: [faster] })
  // A hotfix straight to production, which staging never ran: it changes nothing waiting.
  const hotfix = { name: 'h1', at: at(4, 11), subject: 'Hotfix' }
  await deploy({ environment: 'production', commit: 'h1', at: at(4, 12), delivered: [hotfix] })
}, 60_000)

test('staging → production: the commits waiting, newest first, with subjects, authors and links', async () => {
  const response = await compare('app=CHECKOUT&from=Staging&to=production')
  expect(response.status).toBe(200)
  const body = await response.json()
  expect(body).toMatchObject({
    app: 'checkout',
    repositoryFullName: 'acme/shop',
    from: { environment: 'staging', deployment: { id: c4, version: 'v-c4' } },
    to: { environment: 'production', deployment: { version: 'v-h1' } },
    complete: true,
    reason: null,
  })
  expect(body.commits).toEqual([
    {
      sha: sha('c4'),
      subject: 'Faster search',
      author: 'Ada',
      committedAt: '2026-05-04T08:00:00.000Z',
      url: `${WEB}/commit/${sha('c4')}`,
    },
    {
      sha: sha('c3'),
      subject: 'Fix the *total*',
      author: 'Ada',
      committedAt: '2026-05-03T08:00:00.000Z',
      url: `${WEB}/commit/${sha('c3')}`,
    },
    {
      sha: sha('x3'),
      subject: 'Tidy [styles]',
      author: null,
      committedAt: '2026-05-03T07:00:00.000Z',
      url: `${WEB}/commit/${sha('x3')}`,
    },
  ])
  expect(body.deployments.map((deployment: { id: string }) => deployment.id)).toEqual([c4, c3])
})

test('Accept: text/markdown answers release notes', async () => {
  const response = await compare('app=checkout&from=staging&to=production', 'text/markdown')
  expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
  expect(response.headers.get('ratelimit-limit')).not.toBeNull()
  const notes = await response.text()
  expect(notes.split('\n')[0]).toBe('# checkout: staging → production')
  expect(notes).toContain('3 commits wait, in 2 deployments of staging:')
  expect(notes).toContain(
    `- Fix the \\*total\\* ([\`${sha('c3').slice(0, 12)}\`](${WEB}/commit/${sha('c3')})) — Ada`,
  )
  expect(notes).toContain('- Tidy \\[styles\\]')
  expect(notes).not.toContain('Incomplete')
})

test('the other way round, and once production catches up, nothing waits', async () => {
  const back = await (await compare('app=checkout&from=production&to=staging')).json()
  expect(back.commits.map((commit: { sha: string }) => commit.sha)).toEqual([sha('h1')])
  // The same commits, listed without subjects or authors.
  const delivered = [faster, fix, tidy].map(({ name, at }) => ({ name, at }))
  await deploy({ environment: 'production', commit: 'c4', at: at(5, 10), delivered })
  const caught = await (await compare('app=checkout&from=staging&to=production')).json()
  expect({
    commits: caught.commits,
    deployments: caught.deployments,
    complete: caught.complete,
  }).toEqual({
    commits: [],
    deployments: [],
    complete: true,
  })
})

test('a deployment waiting without a commit list makes the answer incomplete, and says why', async () => {
  await deploy({ app: 'search', environment: 'production', commit: 's1', at: at(1, 10) })
  await deploy({ app: 'search', environment: 'staging', commit: 's1', at: at(1, 9) })
  await deploy({ app: 'search', environment: 'staging', commit: 's2', at: at(2, 9) })
  const body = await (await compare('app=search&from=staging&to=production')).json()
  expect(body).toMatchObject({ commits: [], complete: false })
  expect(body.reason).toStartWith('1 of the 1 deployments waiting sent no commit list')
  // Never deployed to production: everything staging ran waits, and its first has no list.
  await deploy({ app: 'cart', environment: 'staging', commit: 'k1', at: at(1, 9) })
  const fresh = await (await compare('app=cart&from=staging&to=production')).json()
  expect(fresh).toMatchObject({
    to: { environment: 'production', deployment: null },
    complete: false,
  })
  expect(fresh.deployments).toHaveLength(1)
})

test('unknown names are a 404; an ambiguous application, or one environment twice, a 422', async () => {
  await deploy({
    app: 'checkout',
    repository: 'acme/legacy',
    environment: 'staging',
    commit: 'l1',
    at: at(1, 9),
  })
  const ambiguous = await compare('app=checkout&from=staging&to=production')
  expect(ambiguous.status).toBe(422)
  expect((await ambiguous.json()).errors).toEqual([
    {
      field: 'repository',
      message: 'is needed: checkout is an application of 2 repositories (acme/legacy, acme/shop)',
    },
  ])
  expect(
    (await compare('app=checkout&repository=acme/shop&from=staging&to=production')).status,
  ).toBe(200)
  expect((await compare('app=nothing&from=staging&to=production')).status).toBe(404)
  expect((await compare('app=search&from=staging&to=moon')).status).toBe(404)
  expect((await compare('app=search&from=staging&to=STAGING')).status).toBe(422)
  const missing = await compare('app=search')
  expect((await missing.json()).errors.map((error: { field: string }) => error.field)).toEqual([
    'from',
    'to',
  ])
  const other = (await h.createKey({ workspace: 'strangers' })).key
  expect(
    (await h.get('/v1/compare?app=search&from=staging&to=production', { key: other })).status,
  ).toBe(404)
})
