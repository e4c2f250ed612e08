import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createTestDatabase, stopTestServer } from '@shiplog/db/testing/test-database'

const db = await createTestDatabase()
for (const args of [
  ['src/main.ts'],
  ['--smol', 'src/main.ts'],
  ['-e', 'setInterval(() => {}, 1000)'],
  ['-e', "await import('elysia'); setInterval(() => {}, 1000)"],
  ['-e', "await import('pg-boss'); setInterval(() => {}, 1000)"],
  ['-e', "await import('postgres'); setInterval(() => {}, 1000)"],
]) {
  const p = spawn('bun', args, {
    cwd: 'apps/api',
    env: { ...process.env, DATABASE_URL: db.url, PORT: '3998', LOG_REQUESTS: 'false' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let err = ''
  p.stderr.on('data', (d) => {
    err += d
  })
  await Bun.sleep(1500)
  let rss = 'exited: ' + err.slice(0, 200)
  try {
    rss =
      readFileSync(`/proc/${p.pid}/status`, 'utf8')
        .split('\n')
        .find((l) => l.startsWith('VmRSS')) ?? ''
  } catch {}
  console.log('RSS', args.join(' ').slice(0, 50).padEnd(50), rss)
  p.kill('SIGKILL')
  await new Promise((r) => p.once('exit', r))
}
await db.drop()
await stopTestServer()
