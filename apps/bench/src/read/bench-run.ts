import { stopTestServer, testServer } from '@shiplog/db/testing'
import { type BenchApi, startApi } from './api.ts'
import { type BenchDatabase, createBenchDatabase } from './database.ts'
import { cleanUpOnInterrupt } from './interrupt.ts'
import { describeSetting, type Setting } from './setting.ts'

/** What a read benchmark measures against: its database, where it runs, and its API. */
export interface BenchRun {
  database: BenchDatabase
  setting: Setting
  /** Starts the API on the database; stopped with the run. */
  startApi(): Promise<BenchApi>
}

/**
 * A benchmark's database on the test server (DATABASE_URL's, or the embedded one) for `measure`;
 * afterwards, or on an interrupt, the API is stopped, the database closed (or kept) and the
 * server stopped.
 */
export async function runOnBenchDatabase(
  keepDatabase: boolean,
  log: (message: string) => void,
  measure: (run: BenchRun) => Promise<void>,
): Promise<void> {
  const server = await testServer()
  const database = await createBenchDatabase(server.url)
  let api: BenchApi | undefined
  const cleanUp = async () => {
    await api?.process.stop()
    await database.close(keepDatabase)
    await stopTestServer()
  }
  cleanUpOnInterrupt(cleanUp, log)
  try {
    const embedded = !process.env.DATABASE_URL
    const setting = await describeSetting(database.sql, embedded, new URL(server.url).host)
    await measure({
      database,
      setting,
      startApi: async () => {
        api = await startApi(database)
        return api
      },
    })
  } finally {
    await cleanUp()
  }
}
