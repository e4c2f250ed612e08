import { afterAll, beforeAll } from 'bun:test'

/**
 * What a test file starts once (the API's harness, a seeded database): started before the
 * file's first test, closed after its last. Call it at the top of the file; what it returns stands
 * for what was started inside hooks and tests (not while the file loads).
 */
export function perFile<Started extends { close(): Promise<void> }>(
  start: () => Promise<Started>,
  timeoutMs?: number,
): Started {
  let started: Started | undefined
  beforeAll(async () => {
    started = await start()
  }, timeoutMs)
  afterAll(() => started?.close())
  const opened = (property: PropertyKey) => {
    if (!started) throw new Error(`not started yet: read .${String(property)} inside a test`)
    return started
  }
  return new Proxy({} as Started, {
    get: (_, property) => Reflect.get(opened(property), property),
    has: (_, property) => Reflect.has(opened(property), property),
  })
}
