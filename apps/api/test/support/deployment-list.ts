import { expect } from 'bun:test'
import type { Harness } from './harness.ts'

/** `GET /v1/deployments` (with `query`) as `key` sees it; the answer must be 200. */
export async function list(h: Harness, key?: string, query = '') {
  const response = await h.get(`/v1/deployments${query}`, { key })
  expect(response.status).toBe(200)
  return (await response.json()) as { data: Record<string, unknown>[]; nextCursor: string | null }
}
