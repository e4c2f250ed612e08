/** The state matrix renders each cell exactly as the receipt of the deployment it names. */
import { expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { readSuite } from '../support/read-suite.ts'

const r = readSuite()

test('every cell of /v1/state is its deployment as the receipt shows it, to the microsecond and before 1970', async () => {
  const key = (await r.h.createKey({ workspace: 'state-cells', rateLimitPerMinute: 100_000 })).key
  const instants = ['1969-07-20T20:17:40.123456Z', '0001-01-01T00:00:00.5Z', '2026-05-07T10:00:00Z']
  const locations: string[] = []
  for (const [index, deployedAt] of instants.entries()) {
    locations.push(
      await r.postDeployment(
        validDeployment({ app: `app-${index}`, environment: `env-${index}`, deployedAt }),
        {},
        key,
      ),
    )
  }
  await r.h.drain()
  const { body } = await r.getJson('/v1/state', key)
  const cells = body.rows.flatMap((row: { cells: unknown[] }) => row.cells).filter(Boolean)
  // One at a time: a key may run two reads at once.
  const receipts = []
  for (const location of locations) {
    const receipt = await r.getJson(location, key)
    expect(receipt.status).toBe(200)
    receipts.push(receipt.body)
  }
  expect(cells.map((cell: { deployedAt: string }) => cell.deployedAt).sort()).toEqual([
    '0001-01-01T00:00:00.500Z',
    '1969-07-20T20:17:40.123456Z',
    '2026-05-07T10:00:00.000Z',
  ])
  for (const receipt of receipts) {
    expect(cells).toContainEqual({
      id: receipt.id,
      app: receipt.app,
      environment: receipt.environment,
      version: receipt.version,
      commitHash: receipt.commitHash,
      deployedAt: receipt.deployedAt,
    })
  }
})
