import { afterAll } from 'bun:test'
import { stopTestServer } from './test-database.ts'

// Registered once for the whole `bun test` run: stop the embedded Postgres if a test started it.
afterAll(async () => {
  await stopTestServer()
})
