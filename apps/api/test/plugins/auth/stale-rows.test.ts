import { expect, test } from 'bun:test'
import { harnessPerFile } from '../../support/harness.ts'

// Two connections, both left by a query that died mid-stream: with postgres.js 3.4.9 unpatched, the
// next key lookup on either resolved with holes where its row should be, and a valid key got 401.
const h = harnessPerFile({ DATABASE_POOL_SIZE: '2' })

// Sent together so the pool gives each its own connection; division by zero on row 4 fails at the
// same row every time, unlike a timeout.
async function failMidStreamOnBothConnections() {
  const failing = () => h.api.sql`select i, 1 / (4 - i) as boom from generate_series(1, 10) i`
  const outcomes = await Promise.allSettled([failing(), failing()])
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected'])
}

test('a new key is accepted right after queries failed mid-stream on every pooled connection', async () => {
  for (let round = 0; round < 3; round++) {
    await failMidStreamOnBothConnections()
    for (let request = 0; request < 2; request++) {
      // A new key each time, so the answer comes from the database, not the key cache.
      const { key } = await h.createKey({ workspace: 'stale' })
      const response = await h.get('/v1/applications', { key })
      expect(response.status).toBe(200)
    }
  }
})
