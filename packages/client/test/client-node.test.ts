import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'
import { type LiveApi, startLiveApi } from './live-api.ts'

// The client library bundled as published and run under plain Node against a running Shiplog.

let live: LiveApi
let key: string

beforeAll(async () => {
  live = await startLiveApi()
  key = await live.createKey()
}, 60_000)

afterAll(async () => {
  await live?.close()
})

// Node cannot run the TypeScript sources, so the library is bundled as a published build would be.
const NODE_SMOKE = `
import { createShiplogClient, ShiplogError } from './client.mjs'
const [url, apiKey] = process.argv.slice(2)
const client = createShiplogClient({ baseUrl: url, apiKey })
const input = { repositoryFullName: 'acme/node', environment: 'e', app: 'on-node', version: '1', commitHash: 'abcdef1' }
const created = await client.createDeployment(input)
const recorded = await client.waitUntilRecorded(created.id, { intervalMs: 100, timeoutMs: 20000 })
const invalid = await client.createDeployment({ ...input, commitHash: 'HEAD' }).catch((error) => error)
console.log(JSON.stringify({ status: recorded.status, invalid: invalid instanceof ShiplogError && invalid.status }))
`

test.skipIf(!Bun.which('node'))(
  'the library runs unchanged under Node',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shiplog-client-'))
    try {
      const build = await Bun.build({
        entrypoints: [new URL('../src/index.ts', import.meta.url).pathname],
        target: 'node',
        format: 'esm',
        outdir: dir,
        naming: 'client.mjs',
      })
      expect(build.success).toBe(true)
      await writeFile(join(dir, 'smoke.mjs'), NODE_SMOKE)
      const { stdout, stderr, code } = await runProcess(
        ['node', join(dir, 'smoke.mjs'), live.url, key],
        { cwd: dir, env: process.env },
      )
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
      expect(JSON.parse(stdout)).toEqual({ status: 'recorded', invalid: 422 })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
  30_000,
)
