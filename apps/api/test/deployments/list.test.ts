import { beforeAll, describe, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

const h = harnessPerFile()
let key: string

interface Page {
  data: { id: string; version: string; deployedAt: string; app: string; environment: string }[]
  nextCursor: string | null
}

async function page(query: string): Promise<Page> {
  const response = await h.get(`/v1/deployments${query}`, { key })
  expect(response.status).toBe(200)
  return response.json()
}

beforeAll(async () => {
  key = (await h.createKey({ workspace: 'reader', rateLimitPerMinute: 10_000 })).key
  // 120 deployments: two apps, two environments, one minute apart, plus three at the same instant.
  for (let index = 0; index < 117; index++) {
    const deployedAt = new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString()
    const response = await h.post(
      validDeployment({
        app: index % 2 ? 'api' : 'web',
        environment: index % 3 ? 'staging' : 'production',
        version: `v${index}`,
        deployedAt,
      }),
      { key },
    )
    expect(response.status).toBe(202)
  }
  for (const version of ['tie-a', 'tie-b', 'tie-c']) {
    await h.post(validDeployment({ app: 'web', version, deployedAt: '2026-01-01T00:30:00Z' }), {
      key,
    })
  }
  expect(await h.drain()).toBe(120)
})

describe('GET /v1/deployments', () => {
  test('lists newest deployedAt first, 50 by default, with a cursor to the next page', async () => {
    const first = await page('')
    expect(first.data).toHaveLength(50)
    expect(first.data[0]?.version).toBe('v116')
    const times = first.data.map((record) => Date.parse(record.deployedAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(first.nextCursor).toEqual(expect.any(String))
  })

  test('following nextCursor visits every deployment exactly once, ties included', async () => {
    const seen: string[] = []
    let cursor: string | null = ''
    let pages = 0
    while (cursor !== null) {
      const next: Page = await page(
        `?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      )
      seen.push(...next.data.map((record) => record.id))
      cursor = next.nextCursor
      pages++
    }
    expect(pages).toBe(Math.ceil(120 / 7))
    expect(seen).toHaveLength(120)
    expect(new Set(seen).size).toBe(120)
  })

  test('the last page has nextCursor null', async () => {
    const all = await page('?limit=100')
    const rest = await page(`?limit=100&cursor=${encodeURIComponent(all.nextCursor ?? '')}`)
    expect(rest.data).toHaveLength(20)
    expect(rest.nextCursor).toBeNull()
  })

  test('filters by app and environment, case-insensitively', async () => {
    const api = await page('?app=API&limit=100')
    expect(api.data.every((record) => record.app === 'api')).toBe(true)
    expect(api.data).toHaveLength(58)
    const production = await page('?environment=Production&limit=100')
    expect(production.data.every((record) => record.environment === 'production')).toBe(true)
    expect(production.data).toHaveLength(42)
    const both = await page('?app=web&environment=production&limit=100')
    expect(both.data).toHaveLength(23)
    expect((await page('?app=nothing-like-this')).data).toEqual([])
  })

  test.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    ['colour=blue', 'colour'],
  ])('?%s is a 422 problem naming %s', async (query, field) => {
    const response = await h.get(`/v1/deployments?${query}`, { key })
    expect(response.status).toBe(422)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
    const body = await response.json()
    expect(body.errors.map((error: { field: string }) => error.field)).toContain(field)
  })

  test('reads need a valid key too', async () => {
    expect((await h.get('/v1/deployments', { key: null })).status).toBe(401)
  })
})
