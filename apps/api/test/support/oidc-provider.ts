// Starts the test's OpenID provider (provider-process.ts) as a process of its own, on 127.0.0.1:
// another site than Shiplog's `localhost`, as a company's identity provider always is.
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { randomPort } from '@shiplog/db/testing'

export { PEOPLE } from './people.ts'

/** A running provider: its issuer URL, and `stop`, which takes it away as an outage would. */
export interface TestProvider {
  issuer: string
  stop(): Promise<void>
}

export const CLIENT = { id: 'shiplog-test', secret: 'shiplog-test-secret' }

/** Starts the provider with Shiplog (at `shiplogBase`) as its one client. */
export async function startProvider(shiplogBase: string): Promise<TestProvider> {
  const settings = {
    port: randomPort(),
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    redirectUri: `${shiplogBase}/ui/sign-in/callback`,
    postLogoutRedirectUri: `${shiplogBase}/ui/sign-in`,
  }
  const child: ChildProcess = spawn(
    process.execPath,
    [fileURLToPath(new URL('./provider-process.ts', import.meta.url)), JSON.stringify(settings)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const output: string[] = []
  child.stderr?.on('data', (chunk) => output.push(String(chunk)))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const issuer = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      const line = String(chunk)
        .split('\n')
        .find((text) => text.startsWith('{"issuer"'))
      if (line) resolve(JSON.parse(line).issuer)
    })
    child.once('exit', (code) =>
      reject(new Error(`the provider exited (${code}): ${output.join('').slice(-2000)}`)),
    )
  })
  return {
    issuer,
    async stop() {
      child.kill('SIGTERM')
      await exited
    },
  }
}
