import { beforeAll, expect } from 'bun:test'
import { harnessPerFile } from './harness.ts'

/**
 * A harness of the file's own with two keys: `key` (workspace `reads`) and `otherKey` (workspace
 * `strangers`, which never records anything), and the read helpers bound to them. Read the
 * getters inside tests, once `beforeAll` has run.
 */
export function readSuite() {
  const h = harnessPerFile()
  let key: string
  let otherKey: string

  beforeAll(async () => {
    key = (await h.createKey({ workspace: 'reads', rateLimitPerMinute: 100_000 })).key
    otherKey = (await h.createKey({ workspace: 'strangers', rateLimitPerMinute: 100_000 })).key
  })

  async function getJson(path: string, withKey = key) {
    const response = await h.get(path, { key: withKey })
    return { status: response.status, body: await response.json() }
  }

  async function postDeployment(
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
    withKey = key,
  ) {
    const response = await h.post(body, { key: withKey, headers })
    expect(response.status).toBe(202)
    const location = response.headers.get('location') as string
    expect(location).toMatch(/^\/v1\/deployments\/[0-9a-f-]{36}$/)
    return location
  }

  return {
    h,
    get key(): string {
      return key
    },
    get otherKey(): string {
      return otherKey
    },
    getJson,
    postDeployment,
  }
}

/** What `readSuite` gives a file. */
export type ReadSuite = ReturnType<typeof readSuite>

/** Two applications over five days: the history the listing's filters, the catalog and the
 * frequency are read from. */
const HISTORY = [
  ['acme/web', 'web', 'production', '1.0', 'aaaa111', '2026-05-01T10:00:00Z'],
  ['acme/web', 'web', 'staging', '1.1', 'bbbb222', '2026-05-02T10:00:00Z'],
  ['acme/web', 'web', 'production', '1.1', 'bbbb222', '2026-05-03T10:00:00Z'],
  ['acme/api', 'api', 'production', '2.0', 'cccc333', '2026-05-03T12:00:00Z'],
  ['acme/api', 'api', 'production', '2.1', 'dddd444', '2026-05-05T08:00:00Z'],
] as const

/** Records the history in workspace `queries`; resolves with that workspace's key. */
export async function recordHistory(suite: ReadSuite): Promise<string> {
  const key = (await suite.h.createKey({ workspace: 'queries', rateLimitPerMinute: 100_000 })).key
  for (const [repositoryFullName, app, environment, version, commitHash, deployedAt] of HISTORY) {
    const deployment = { repositoryFullName, app, environment, version, commitHash, deployedAt }
    await suite.postDeployment(deployment, {}, key)
  }
  await suite.h.drain()
  return key
}
