import { afterEach, expect, test } from 'bun:test'
import net from 'node:net'
import { createSql } from './client.ts'
import { createTestDatabase } from './testing/test-database.ts'

// postgres.js fetches the server's array types as the first statement of every new connection and
// dropped that promise (upstream #1192, #1223). A cut while it ran, with Postgres then refusing the
// reconnect, rejected it with nobody listening: the worker died of an unhandled rejection when an
// outage began as it was opening its connections. patches/postgres@3.4.9.patch handles it.

const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)

afterEach(() => {
  process.off('unhandledRejection', onUnhandled)
})

/** Passes Postgres through until the client asks for the array types, then goes away for good. */
async function proxyThatDiesAtTheTypeFetch(upstreamPort: number) {
  let sawTypeFetch = false
  const server = net.createServer((client) => {
    const upstream = net.connect(upstreamPort, '127.0.0.1')
    for (const socket of [client, upstream]) socket.on('error', () => {})
    upstream.pipe(client)
    client.on('data', (chunk) => {
      if (chunk.toString('latin1').includes('typarray')) {
        sawTypeFetch = true
        server.close()
        client.destroy()
        upstream.destroy()
        return
      }
      upstream.write(chunk)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    sawTypeFetch: () => sawTypeFetch,
  }
}

test('Postgres lost while a new connection fetches its types: the query fails, nothing is left unhandled', async () => {
  const database = await createTestDatabase()
  const url = new URL(database.url)
  const proxy = await proxyThatDiesAtTheTypeFetch(Number(url.port))
  url.port = String(proxy.port)
  const sql = createSql(url.toString(), { applicationName: 't', maxConnections: 1 })
  process.on('unhandledRejection', onUnhandled)
  try {
    await expect(sql`select 1`).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    expect(proxy.sawTypeFetch()).toBe(true)
    // The dropped promise rejected a few ticks after the query did.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(unhandled.map(String)).toEqual([])
  } finally {
    await sql.end({ timeout: 1 })
    await database.drop()
  }
})
