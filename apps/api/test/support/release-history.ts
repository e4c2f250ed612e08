import { expect } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { validDeployment } from '@shiplog/schema/testing'
import type { BrowserContextOptions, Page } from 'playwright-core'
import { type ServedDashboard, serveDashboard, signIn } from './served-dashboard.ts'

// A release manager's history, scripted across dev, staging and production, for the browser
// tests of a working day: checkout went dev → staging → production, staging is one deployment
// (c3, with x3) ahead and dev two (c4); search was rolled back in staging and its newest
// production deployment voided; production's checkout is the cause of an open incident, and dev
// has one of its own.

export const WEB = 'https://github.com/acme/shop'
export const sha = (name: string) => Buffer.from(name).toString('hex').padEnd(40, '0').slice(0, 40)

/** The commits the lists name: each its subject and author. */
export const COMMITS = {
  c2: { name: 'c2', at: '2026-05-02T08:00:00Z', subject: 'Add gift cards', author: 'Grace' },
  c3: { name: 'c3', at: '2026-05-03T08:00:00Z', subject: 'Fix the checkout total', author: 'Ada' },
  x3: { name: 'x3', at: '2026-05-03T07:00:00Z', subject: 'Tidy the styles', author: 'Lin' },
  c4: { name: 'c4', at: '2026-05-04T08:00:00Z', subject: 'Faster search', author: 'Ada' },
}

interface Step {
  app?: string
  environment: string
  commit: string
  at: string
  delivered?: (typeof COMMITS)[keyof typeof COMMITS][]
}

/** The served dashboard with the history, its keys, and each deployment's id by `app env commit`. */
export interface ReleaseDay extends ServedDashboard {
  manager: string
  pipeline: string
  ids: Map<string, string>
  /**
   * Runs `use` on a page the manager signed in to at `path` (the overview without one), in a
   * browser context of its own, closed afterwards whatever happened.
   */
  asManager<Result>(
    path: string | undefined,
    use: (page: Page) => Promise<Result>,
    options?: BrowserContextOptions,
  ): Promise<Result>
}

/** Serves Shiplog and Chromium, and records the history. */
export async function startReleaseDay(): Promise<ReleaseDay> {
  const dashboard = await serveDashboard()
  const { h } = dashboard
  const ids = new Map<string, string>()
  const issue = async (name: string, scopes: string[]) =>
    (
      await issueApiKey(h.sql, {
        workspace: 'release',
        name,
        scopes: scopes as never,
        rateLimitPerMinute: 1_000_000,
      })
    ).key
  const manager = await issue('manager', ['read', 'incidents:write'])
  const pipeline = await issue('pipeline', ['deployments:write', 'read', 'admin'])

  async function deploy(step: Step): Promise<string> {
    const app = step.app ?? 'checkout'
    const response = await h.post(
      validDeployment({
        app,
        environment: step.environment,
        version: `${app}-${step.commit}`,
        commitHash: sha(step.commit),
        deployedAt: step.at,
        author: 'release-bot',
      }),
      { key: pipeline },
    )
    expect(response.status).toBe(202)
    const id = (response.headers.get('location') as string).split('/').at(-1) as string
    if (step.delivered) {
      const commits = step.delivered.map(({ name, at, subject, author }) => ({
        sha: sha(name),
        committedAt: at,
        authoredAt: at,
        reverts: [],
        subject,
        author,
      }))
      const put = await h.send('PUT', `/v1/deployments/${id}/commits`, {
        key: pipeline,
        body: { commits, webUrl: WEB },
      })
      expect(put.status).toBe(204)
    }
    ids.set(`${app} ${step.environment} ${step.commit}`, id)
    return id
  }

  const { c2, c3, x3, c4 } = COMMITS
  // checkout: dev ran c1…c4, staging c1…c3, production c1 and c2.
  for (const [environment, hour] of [
    ['dev', '07'],
    ['staging', '09'],
    ['production', '12'],
  ] as const) {
    await deploy({ environment, commit: 'c1', at: `2026-05-01T${hour}:00:00Z` })
    await deploy({ environment, commit: 'c2', at: `2026-05-02T${hour}:00:00Z`, delivered: [c2] })
    if (environment !== 'production') {
      await deploy({
        environment,
        commit: 'c3',
        at: `2026-05-03T${hour}:00:00Z`,
        delivered: [c3, x3],
      })
    }
  }
  await deploy({ environment: 'dev', commit: 'c4', at: '2026-05-04T06:00:00Z', delivered: [c4] })
  // search: rolled back in staging; its newest production deployment voided.
  for (const [commit, at] of [
    ['s1', '2026-05-01T10:00:00Z'],
    ['s2', '2026-05-02T10:00:00Z'],
    ['s1', '2026-05-03T10:00:00Z'],
  ] as const) {
    await deploy({ app: 'search', environment: 'staging', commit, at })
  }
  await deploy({
    app: 'search',
    environment: 'production',
    commit: 'p1',
    at: '2026-05-01T11:00:00Z',
  })
  const mistaken = await deploy({
    app: 'search',
    environment: 'production',
    commit: 'p2',
    at: '2026-05-02T11:00:00Z',
  })
  await h.drain()
  expect((await h.send('DELETE', `/v1/deployments/${mistaken}`, { key: pipeline })).status).toBe(
    200,
  )
  // Production's checkout is the cause of an open incident; dev has one of its own.
  for (const body of [
    {
      environment: 'production',
      app: 'checkout',
      title: 'Gift cards fail',
      causeDeploymentId: ids.get('checkout production c2'),
    },
    { environment: 'dev', title: 'Dev database down' },
  ]) {
    expect((await h.send('POST', '/v1/incidents', { key: pipeline, body })).status).toBe(201)
  }
  async function asManager<Result>(
    path: string | undefined,
    use: (page: Page) => Promise<Result>,
    options?: BrowserContextOptions,
  ): Promise<Result> {
    const context = await dashboard.browser.newContext(options)
    try {
      return await use(await signIn(context, dashboard.base, manager, path))
    } finally {
      await context.close()
    }
  }
  return { ...dashboard, manager, pipeline, ids, asManager }
}
