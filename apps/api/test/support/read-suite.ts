import { afterAll, beforeAll, expect } from 'bun:test'
import { type Harness, startHarness } from '../harness.ts'

/**
 * A harness of the file's own with two keys: `key` (workspace `reads`) and `otherKey` (workspace
 * `strangers`, which never records anything), and the read helpers bound to them. Read the
 * getters inside tests, once `beforeAll` has run.
 */
export function readSuite() {
  let h: Harness
  let key: string
  let otherKey: string

  beforeAll(async () => {
    h = await startHarness()
    key = (await h.createKey({ workspace: 'reads', rateLimitPerMinute: 100_000 })).key
    otherKey = (await h.createKey({ workspace: 'strangers', rateLimitPerMinute: 100_000 })).key
  })
  afterAll(() => h?.close())

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
    get h(): Harness {
      return h
    },
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
