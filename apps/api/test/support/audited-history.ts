import { expect } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { type Harness, startHarness } from './harness.ts'

// A history whose figures the lists must add up to: two applications in production, one in
// eu-production and one in staging, with rollbacks (one of a rollback), a revert, incidents
// (fixed, open, one naming a redeploy), redeploys and late lists.

/** Where checkout's pipelines say the repository lives (search's send no address). */
export const WEB_URL = 'https://github.com/acme/shop'

/** The SHA of commit `n`. */
export const sha = (n: number) => n.toString(16).padStart(40, 'c')
const day = (d: string, hour = 10) => `2026-${d}T${String(hour).padStart(2, '0')}:00:00.000Z`

interface Step {
  version: string
  app?: string
  environment?: string
  commit: number
  at: string
  /** Commits listed: number, committed this many hours before; reverts. */
  commits?: { n: number; hoursBefore: number; reverts?: number[] }[]
}

const STEPS: Step[] = [
  { version: 'v1', commit: 1, at: day('04-01') },
  { version: 'v2', commit: 2, at: day('04-02'), commits: [{ n: 2, hoursBefore: 5 }] },
  { version: 'v3', commit: 3, at: day('04-03'), commits: [{ n: 3, hoursBefore: 7 }] },
  { version: 'v4', commit: 2, at: day('04-04') },
  {
    version: 'v5',
    commit: 4,
    at: day('04-06'),
    commits: [
      { n: 3, hoursBefore: 80 },
      { n: 4, hoursBefore: 2 },
    ],
  },
  { version: 'v6', commit: 5, at: day('04-08'), commits: [{ n: 5, hoursBefore: 1, reverts: [4] }] },
  { version: 'v7', commit: 5, at: day('04-09') },
  { version: 'v8', commit: 6, at: day('04-10'), commits: [{ n: 6, hoursBefore: 30 }] },
  { version: 'v9', commit: 7, at: day('04-12'), commits: [{ n: 7, hoursBefore: 3 }] },
  { version: 'v10', commit: 8, at: day('04-14'), commits: [{ n: 8, hoursBefore: 50 }] },
  { version: 'v11', commit: 9, at: day('04-20'), commits: [{ n: 9, hoursBefore: 4 }] },
  { version: 'v12', commit: 8, at: day('04-21') },
  { version: 'v13', commit: 9, at: day('04-22') },
  { version: 'v14', commit: 8, at: day('04-23') },
  { version: 's1', app: 'search', commit: 21, at: day('04-02', 8) },
  {
    version: 's2',
    app: 'search',
    commit: 22,
    at: day('04-05', 8),
    commits: [{ n: 22, hoursBefore: 9 }],
  },
  { version: 's3', app: 'search', commit: 21, at: day('04-07', 8) },
  {
    version: 's4',
    app: 'search',
    commit: 23,
    at: day('04-13', 8),
    commits: [{ n: 23, hoursBefore: 12 }],
  },
  { version: 'e1', environment: 'eu-production', commit: 2, at: day('04-03', 12) },
  {
    version: 'e2',
    environment: 'eu-production',
    commit: 3,
    at: day('04-06', 12),
    commits: [{ n: 3, hoursBefore: 60 }],
  },
  { version: 'e3', environment: 'eu-production', commit: 2, at: day('04-09', 12) },
  {
    version: 'e4',
    environment: 'eu-production',
    commit: 6,
    at: day('04-15', 12),
    commits: [{ n: 6, hoursBefore: 100 }],
  },
  { version: 't1', environment: 'staging', commit: 2, at: day('04-02', 6) },
  {
    version: 't2',
    environment: 'staging',
    commit: 3,
    at: day('04-03', 6),
    commits: [{ n: 3, hoursBefore: 1 }],
  },
  { version: 't3', environment: 'staging', commit: 2, at: day('04-04', 6) },
]

/** Windows that cut the history in different places: whole weeks, part days, the whole month. */
export const WINDOWS = [
  ['2026-04-01', '2026-05-01'],
  ['2026-04-06', '2026-04-13'],
  ['2026-04-03T12:00:00Z', '2026-04-21T06:00:00Z'],
  ['2026-04-08T10:00:00Z', '2026-04-14T10:00:00Z'],
  ['2026-04-20', '2026-04-30'],
] as const

/** Records the history in a workspace of its own; answers its key and the ids by version. */
export async function recordAuditedHistory(h: Harness, workspace: string) {
  const { key } = await h.createKey({
    workspace,
    scopes: ['deployments:write', 'incidents:write', 'read'],
    rateLimitPerMinute: 100_000,
  })
  const ids = new Map<string, string>()
  // Sent newest first: arrival order changes nothing (docs/dora.md).
  for (const step of [...STEPS].reverse()) {
    const body = validDeployment({
      app: step.app ?? 'checkout',
      environment: step.environment ?? 'production',
      version: step.version,
      commitHash: sha(step.commit),
      deployedAt: step.at,
    })
    const response = await h.post(body, { key })
    expect(response.status).toBe(202)
    const id = (response.headers.get('location') as string).split('/').at(-1) as string
    ids.set(step.version, id)
    if (step.commits) {
      const commits = step.commits.map((c) => {
        const committedAt = new Date(Date.parse(step.at) - c.hoursBefore * 3_600_000).toISOString()
        return {
          sha: sha(c.n),
          committedAt,
          authoredAt: committedAt,
          reverts: (c.reverts ?? []).map((n) => sha(n)),
          // Details some pipelines send and others do not.
          ...(c.n % 2 === 0 ? { subject: `Change ${c.n}`, author: 'Ada' } : {}),
        }
      })
      const listed = await h.send('PUT', `/v1/deployments/${id}/commits`, {
        key,
        body: { truncated: false, commits, ...(step.app === undefined ? { webUrl: WEB_URL } : {}) },
      })
      expect(listed.status).toBe(204)
    }
  }
  await h.drain()
  const incident = async (cause: string, startedAt: string, environment = 'production') => {
    const response = await h.send('POST', '/v1/incidents', {
      key,
      body: {
        environment,
        title: `Caused by ${cause}`,
        startedAt,
        causeDeploymentId: ids.get(cause),
      },
    })
    expect(response.status).toBe(201)
    return ((await response.json()) as { id: string }).id
  }
  const fixed = await incident('v8', day('04-10', 11))
  const fix = await h.send('PATCH', `/v1/incidents/${fixed}`, {
    key,
    body: { fixedByDeploymentId: ids.get('v9'), resolvedAt: day('04-12') },
  })
  expect(fix.status).toBe(200)
  await incident('v10', day('04-15'))
  await incident('v7', day('04-09', 12))
  await incident('e4', day('04-16'), 'eu-production')
  return { key, ids }
}

/** Every page of a list, `limit` at a time; answers the items. */
export async function allPages<T>(h: Harness, key: string, path: string, limit = 3): Promise<T[]> {
  const items: T[] = []
  let cursor = ''
  for (;;) {
    const response = await h.get(`${path}&limit=${limit}${cursor}`, { key })
    expect(response.status).toBe(200)
    const page = (await response.json()) as { data: T[]; nextCursor: string | null }
    items.push(...page.data)
    if (page.nextCursor === null) return items
    cursor = `&cursor=${encodeURIComponent(page.nextCursor)}`
  }
}

/** A harness of its own with the history recorded in `workspace`, read without a per-key limit. */
export async function startAuditedHistory(workspace: string) {
  const h = await startHarness({ READ_CONCURRENCY_PER_KEY: '100' })
  return { h, ...(await recordAuditedHistory(h, workspace)) }
}
