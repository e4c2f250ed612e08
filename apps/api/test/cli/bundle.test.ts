import { beforeAll, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildCli } from '../../../../scripts/build-cli.ts'
import { loadApiEnv } from '../../src/env.ts'
import { wireApi } from '../../src/wiring.ts'
import { harnessPerFile } from '../support/harness.ts'

// GET /cli/shiplog.mjs: the CLI a pipeline fetches from the Shiplog it reports to. The bundle is
// built, not committed; what a pipeline downloads must be the build of this checkout's CLI.

const h = harnessPerFile()
let fresh: Uint8Array<ArrayBuffer>
beforeAll(async () => {
  fresh = new TextEncoder().encode(await buildCli())
})

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

test('the bundle served is `bun run build`’s of this checkout', async () => {
  const response = await h.get('/cli/shiplog.mjs', { key: null })
  const served = new Uint8Array(await response.arrayBuffer())
  if (sha256(served) !== sha256(fresh)) {
    throw new Error('the API serves a CLI bundle other than this checkout’s: run `bun run build`')
  }
  expect(new TextDecoder().decode(served).split('\n')[0]).toBe('#!/usr/bin/env node')
})

// `bun run test` needs no Node; CI has it (served-cli.test.ts runs `notify` with it end to end).
test.skipIf(!Bun.which('node'))('the bundle served runs under Node', async () => {
  const response = await h.get('/cli/shiplog.mjs', { key: null })
  const dir = await mkdtemp(join(tmpdir(), 'shiplog-cli-'))
  try {
    await writeFile(join(dir, 'shiplog.mjs'), new Uint8Array(await response.arrayBuffer()))
    const run = Bun.spawnSync(['node', 'shiplog.mjs', '--help'], { cwd: dir })
    expect({ code: run.exitCode, stderr: run.stderr.toString() }).toEqual({ code: 0, stderr: '' })
    expect(run.stdout.toString()).toStartWith('Usage: shiplog notify --app <name>')
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('GET /cli/shiplog.mjs serves the bundle without a key, its SHA-256 beside it', async () => {
  const response = await h.get('/cli/shiplog.mjs', { key: null })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  const body = new Uint8Array(await response.arrayBuffer())
  expect(body).toEqual(fresh)

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
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(fresh))
  } finally {
    await offline.shutdown(async () => {})
  }
})
