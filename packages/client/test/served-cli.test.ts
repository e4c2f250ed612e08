import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'
import { createShiplogClient } from '../src/index.ts'
import { git, releaseHistory, revList } from './git-repo.ts'
import { type LiveApi, startLiveApi } from './live-api.ts'
import { type ToolPath, toolPath } from './node-only-path.ts'

// The CLI as a pipeline gets it from the Shiplog it reports to, run under plain Node with no
// registry reachable, from a laptop's checkout: no CI variables, so the commit is HEAD, the
// repository the origin remote and the author git's user.name.

let live: LiveApi
let dir: string
let tools: ToolPath

beforeAll(async () => {
  live = await startLiveApi()
  dir = await mkdtemp(join(tmpdir(), 'shiplog-served-cli-'))
  tools = await toolPath(['node', 'git'])
}, 60_000)

afterAll(async () => {
  await live?.close()
  await tools?.remove()
  if (dir) await rm(dir, { recursive: true, force: true })
})

test('downloaded from a running Shiplog and checked against its SHA-256, notify runs under Node', async () => {
  const response = await fetch(`${live.url}/cli/shiplog.mjs`)
  expect(response.status).toBe(200)
  const bundle = new Uint8Array(await response.arrayBuffer())
  const published = await (await fetch(`${live.url}/cli/shiplog.mjs.sha256`)).text()
  expect(published).toBe(`${createHash('sha256').update(bundle).digest('hex')}  shiplog.mjs\n`)
  const cli = join(dir, 'shiplog.mjs')
  await writeFile(cli, bundle)

  const { repo, v1, v2 } = await releaseHistory(dir, 'laptop')
  await git(repo, ['remote', 'add', 'origin', 'git@github.com:acme/laptop.git'])
  await git(repo, ['config', 'user.name', 'Ada Laptop'])
  const key = await live.createKey()
  const notify = async (tag: string) => {
    await git(repo, ['checkout', '--quiet', tag])
    const run = await runProcess(
      ['node', cli, 'notify', '--app', 'laptop', '--environment', 'staging', '--version', tag],
      {
        cwd: repo,
        env: {
          PATH: tools.path,
          HOME: dir,
          npm_config_registry: 'http://127.0.0.1:9/',
          SHIPLOG_URL: live.url,
          SHIPLOG_API_KEY: key,
        },
      },
    )
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
    return /^Deployment (\S+) accepted: laptop \S+ to staging$/m.exec(run.stdout)?.[1] ?? ''
  }
  const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
  const first = await notify('v1')
  expect(await client.waitUntilRecorded(first, { timeoutMs: 20_000 })).toMatchObject({
    commitHash: v1,
    repositoryFullName: 'acme/laptop',
    author: 'Ada Laptop',
  })
  const second = await notify('v2')
  expect((await client.getDeployment(second)).commitHash).toBe(v2)
  const sent = (await client.getDeploymentCommits(second)).commits.map((commit) => commit.sha)
  expect(sent.toSorted()).toEqual((await revList(repo, 'v1', 'v2')).toSorted())
}, 60_000)
