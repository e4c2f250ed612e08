import { expect, test } from 'bun:test'
import type { Queryable } from '../client.ts'
import { ensureWorkspace } from '../queries/workspaces.ts'
import { databasePerFile } from '../testing/database-per-file.ts'
import { inSnapshot, poolOf } from './snapshot.ts'

// A dashboard page reads in one snapshot and hands it to services that open snapshots of their
// own: theirs must be the page's, so every part of the page sees the same moment.

const { sql } = databasePerFile({ applicationName: 'snapshot-test', maxConnections: 3 })

const slugs = (q: Queryable) =>
  q<{ slug: string }[]>`select slug from workspaces where slug like 'snap-%' order by slug`.then(
    (rows) => rows.map((row) => row.slug),
  )

test('a snapshot opened inside another is that one: what commits after its first read stays unseen', async () => {
  await ensureWorkspace(sql, 'snap-a')
  const seen = await inSnapshot(sql, async (tx) => {
    const before = await slugs(tx)
    // Committed by another connection once the outer snapshot has read.
    await ensureWorkspace(sql, 'snap-b')
    const inner = await inSnapshot(tx, slugs)
    return { before, inner }
  })
  expect(seen).toEqual({ before: ['snap-a'], inner: ['snap-a'] })
  expect(await slugs(sql)).toEqual(['snap-a', 'snap-b'])
})

test('a snapshot names the pool it was taken from, and refuses a write', async () => {
  const write = inSnapshot(sql, async (tx) => {
    expect(poolOf(tx)).toBe(sql)
    await tx`insert into workspaces (slug) values ('snap-c')`
  })
  await expect(write).rejects.toThrow(/read-only transaction/)
  expect(poolOf(sql)).toBe(sql)
})
