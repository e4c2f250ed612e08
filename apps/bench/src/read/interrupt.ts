/**
 * Interrupted (a run takes minutes), still runs `cleanUp` (stop the API, drop or keep the
 * database, stop the server), then exits 130.
 */
export function cleanUpOnInterrupt(cleanUp: () => Promise<void>, log: (message: string) => void) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, async () => {
      log(`${signal}: stopping the API, closing the database`)
      await cleanUp()
      process.exit(130)
    })
}
