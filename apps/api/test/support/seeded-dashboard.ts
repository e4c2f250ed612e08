import { expect } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { validDeployment } from '@shiplog/schema/testing'
import type { BrowserContext, Page } from 'playwright-core'
import { type ServedDashboard, serveDashboard, signIn as signInAt } from './served-dashboard.ts'

// The dashboard end to end: a real Shiplog (API and worker on a fresh database) served on a port,
// driven by Debian's Chromium as a person would use it, over a few deployments of a team, one
// with a hostile name and one with a right-to-left name.

export const HOSTILE_APP = '<script>alert(1)</script>'
export const RTL_APP = 'متجر-evil'
// A name stored before names refused bidi controls: the U+202E reverses what follows it, unless
// the page isolates it.
export const LEGACY_APP = 'متجر-\u202Eevil'

export type SeededDashboard = ServedDashboard & {
  reader: string
  admin: string
  writer: string
  signIn: (context: BrowserContext, key: string, path?: string) => Promise<Page>
}

/** Serves the dashboard over the team's deployments, with a reader, an admin and a pipeline key. */
export async function seedDashboard(): Promise<SeededDashboard> {
  const dashboard = await serveDashboard()
  const { h } = dashboard
  const issue = async (name: string, scopes: string[]) =>
    (await issueApiKey(h.sql, { workspace: 'acme', name, scopes: scopes as never })).key
  const reader = await issue('reader', ['read'])
  const admin = await issue('admin', ['read', 'admin', 'incidents:write'])
  const writer = await issue('pipeline', ['deployments:write'])
  const deployments = [
    {
      app: 'checkout',
      environment: 'production',
      version: '1.0.0',
      deployedAt: '2026-05-04T10:00:00Z',
    },
    {
      app: 'checkout',
      environment: 'production',
      version: '1.1.0',
      deployedAt: '2026-05-05T10:00:00Z',
    },
    {
      app: 'checkout',
      environment: 'staging',
      version: '1.2.0',
      deployedAt: '2026-05-06T10:00:00Z',
    },
    {
      app: HOSTILE_APP,
      environment: 'production',
      version: '0.1.0',
      deployedAt: '2026-05-06T11:00:00Z',
    },
    { app: RTL_APP, environment: 'staging', version: '9.9.9', deployedAt: '2026-05-06T12:00:00Z' },
  ]
  for (const [index, deployment] of deployments.entries()) {
    const commitHash = `${index + 1}`.repeat(40)
    const response = await h.post(
      validDeployment({ ...deployment, commitHash, author: 'release-bot' }),
    )
    expect(response.status).toBe(202)
  }
  await h.drain()
  await h.sql`update applications set name = ${LEGACY_APP} where name = ${RTL_APP}`
  return {
    ...dashboard,
    reader,
    admin,
    writer,
    signIn: (context, key, path) => signInAt(context, dashboard.base, key, path),
  }
}
