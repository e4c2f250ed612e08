import { createSql } from '@shiplog/db/client'
import { createTestDatabase, stopTestServer } from '@shiplog/db/testing/test-database'

const db = await createTestDatabase()
const sql = createSql(db.url, { applicationName: 'w', maxConnections: 1 })
for (const size of [1_000, 20_000, 175_000]) {
  const payload = 'x'.repeat(size)
  await sql`select length(${payload}::text)`
  const n = Math.round(20_000_000 / size)
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  for (let i = 0; i < n; i++) await sql`select length(${payload}::text)`
  const cpu = process.cpuUsage(cpu0)
  const wall = performance.now() - t0
  console.log(
    `${size} B x ${n}: ${(wall / n).toFixed(3)} ms/query wall, ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms/query cpu, ${((size * n) / 1e6 / ((cpu.user + cpu.system) / 1e6)).toFixed(0)} MB per cpu-second`,
  )
}
await sql.end()
await db.drop()
await stopTestServer()
