import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { buildCli, CLI_BUNDLE } from '../../../scripts/build-cli.ts'
import { loadApiEnv } from '../src/env.ts'
import { wireApi } from '../src/wiring.ts'
import { type Harness, startHarness } from './harness.ts'

// GET /cli/shiplog.mjs: the CLI a pipeline fetches from the Shiplog it reports to. The bundle is
// committed; this is the check that it is the current source's.

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

test('the committed bundle is what `bun run build:cli` makes of the source', async () => {
  const committed = await readFile(CLI_BUNDLE, 'utf8')
  if (committed !== (await buildCli())) {
    throw new Error(
      'apps/api/src/modules/cli/dist/shiplog.mjs is stale: run `bun run build:cli` and commit the result',
    )
  }
  expect(committed.split('\n')[0]).toBe('#!/usr/bin/env node')
})

test('GET /cli/shiplog.mjs serves the bundle without a key, its SHA-256 beside it', async () => {
  const response = await h.get('/cli/shiplog.mjs', { key: null })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  const body = new Uint8Array(await response.arrayBuffer())
  expect(body).toEqual(new Uint8Array(await readFile(CLI_BUNDLE)))

  const checksum = await h.get('/cli/shiplog.mjs.sha256', { key: null })
  expect(checksum.status).toBe(200)
  expect(await checksum.text()).toBe(`${sha256(body)}  shiplog.mjs\n`)
  expect(response.headers.get('etag')).toBe(`"${sha256(body)}"`)
  // The URL outlives a version, so a cache revalidates; an unchanged bundle is not sent again.
  expect(response.headers.get('cache-control')).toBe('no-cache')
  const again = await h.get('/cli/shiplog.mjs', {
    key: null,
    headers: { 'if-none-match': `"${sha256(body)}"` },
  })
  expect(again.status).toBe(304)
})

test('the CLI is served with the database down', async () => {
  // Nothing listens on port 1: /readyz says so, the download does not care.
  const offline = wireApi(
    loadApiEnv({ DATABASE_URL: 'postgres://shiplog@127.0.0.1:1/shiplog' }),
    () => {},
  )
  try {
    const ask = (path: string) => offline.app.handle(new Request(`http://shiplog.test${path}`))
    expect((await ask('/readyz')).status).toBe(503)
    const response = await ask('/cli/shiplog.mjs')
    expect(response.status).toBe(200)
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(
      sha256(new Uint8Array(await readFile(CLI_BUNDLE))),
    )
  } finally {
    await offline.shutdown(async () => {})
  }
})
