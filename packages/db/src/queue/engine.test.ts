import { expect, test } from 'bun:test'
import { databasePerFile } from '../testing/database-per-file.ts'
import { createEngine, type Engine, stopEngine } from './engine.ts'

const database = databasePerFile({ applicationName: 'shiplog-queue-test', maxConnections: 1 })
const { sql } = database

const queueConnections = async (applicationName: string) => {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from pg_stat_activity where application_name = ${applicationName}`
  return row?.count ?? 0
}

// A backend leaves pg_stat_activity a moment after its client hangs up.
const allClosed = async (applicationName: string) => {
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await Bun.sleep(20)) {
    if ((await queueConnections(applicationName)) === 0) return true
  }
  return false
}

test('stopEngine stops a running queue and closes its connections, logging nothing', async () => {
  const boss = createEngine(database.url, 'producer', 'shiplog-queue-test-stop')
  await boss.start()
  await boss.send('deployments', { probe: true })
  expect(await queueConnections('shiplog-queue-test-stop')).toBeGreaterThan(0)

  const lines: Record<string, unknown>[] = []
  await stopEngine(boss, (line) => lines.push(line))

  expect(lines).toEqual([])
  expect(await allClosed('shiplog-queue-test-stop')).toBe(true)
})

test('stopEngine logs a failed stop instead of throwing it', async () => {
  // The engine gives no way to make its own stop fail on demand; this stands in for one that does.
  const failing = {
    stop: () => Promise.reject(new Error('connection terminated unexpectedly')),
  } as unknown as Engine
  const lines: Record<string, unknown>[] = []

  await stopEngine(failing, (line) => lines.push(line))

  expect(lines).toEqual([
    {
      level: 'warn',
      msg: 'queue did not stop cleanly',
      error: 'Error: connection terminated unexpectedly',
    },
  ])
})
