import { afterAll, beforeAll, expect, test } from 'bun:test'
import { runProcess } from '@shiplog/db/testing'
import { inherited } from './git-repo.ts'
import { type LiveApi, ROOT, startLiveApi } from './live-api.ts'
import { prefixProxy } from './prefix-proxy.ts'

// Shiplog behind a proxy that serves it under /shiplog/: the API's Location names /v1/…, which
// the proxy does not serve; the receipt the CLI prints must keep the prefix.

let live: LiveApi
let proxy: ReturnType<typeof prefixProxy>

beforeAll(async () => {
  live = await startLiveApi()
  proxy = prefixProxy(live.url)
}, 60_000)

afterAll(async () => {
  proxy?.stop()
  await live?.close()
})

test('behind a path prefix, the receipt URL the CLI prints answers 200, and the page it prints sends a browser to sign in', async () => {
  const key = await live.createKey()
  const run = await runProcess(
    [
      'bun',
      'packages/client/src/cli.ts',
      'notify',
      '--url',
      proxy.url,
      '--app',
      'proxied',
      '--environment',
      'production',
      '--version',
      'v1',
      '--commit',
      'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
      '--repository',
      'acme/proxied',
      '--no-commits',
    ],
    { cwd: ROOT, env: { ...inherited, NO_COLOR: '1', SHIPLOG_API_KEY: key } },
  )
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
  const [accepted, receipt = '', page = ''] = run.stdout.trimEnd().split('\n')
  const id = /^Deployment (\S+) accepted/.exec(accepted ?? '')?.[1]
  expect(receipt).toBe(`${proxy.url}/v1/deployments/${id}`)
  // The receipt wants the key; the page is for a browser, which it sends to sign in.
  expect(page).toBe(`Its page: ${proxy.url}/ui/deployments/${id}`)
  const opened = await fetch(page.slice('Its page: '.length), { redirect: 'manual' })
  expect({ status: opened.status, to: opened.headers.get('location') }).toEqual({
    status: 303,
    to: expect.stringContaining('/ui/sign-in'),
  })
  const answer = await fetch(receipt, { headers: { authorization: `Bearer ${key}` } })
  expect(answer.status).toBe(200)
  expect((await answer.json()).id).toBe(id)
  // The API's own Location, which the client no longer trusts for the URL, is not served here.
  expect((await fetch(`${new URL(proxy.url).origin}/v1/deployments/${id}`)).status).toBe(404)
}, 40_000)
