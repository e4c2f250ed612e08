/** `Accept: text/csv` on GET /v1/deployments: every matching deployment, streamed, as the JSON. */
import { expect, test } from 'bun:test'
import { waitFor } from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { csvRecords } from '../support/csv.ts'
import { readSuite } from '../support/read-suite.ts'

const r = readSuite()
// The header line the contract states, written out here rather than taken from the code.
const HEADER =
  'id,status,deployedAt,repositoryFullName,app,environment,version,commitHash,changeType,author,description,monorepoPath,receivedAt,recordedAt'
const COLUMNS = HEADER.split(',')

/** Every page of the JSON list for `query`, as the CSV's columns. */
async function allPages(query: string, key: string) {
  const rows: Record<string, string | null>[] = []
  let cursor = ''
  do {
    const { body } = await r.getJson(`/v1/deployments?${query}&limit=100${cursor}`, key)
    rows.push(...body.data)
    cursor = body.nextCursor ? `&cursor=${body.nextCursor}` : ''
  } while (cursor)
  return rows.map((row) =>
    Object.fromEntries(COLUMNS.map((column) => [column, row[column] ?? null])),
  )
}

const csv = (path: string, key: string) => r.h.get(path, { key, headers: { accept: 'text/csv' } })

test('the CSV holds every matching deployment, as the JSON pages do, in the same order', async () => {
  const key = (await r.h.createKey({ workspace: 'export', rateLimitPerMinute: 100_000 })).key
  for (let index = 0; index < 230; index++) {
    await r.postDeployment(
      validDeployment({
        app: index % 3 === 0 ? 'checkout' : 'search',
        environment: index % 2 === 0 ? 'production' : 'staging',
        version: `1.0.${index}`,
        commitHash: index.toString(16).padStart(40, 'a'),
        deployedAt: new Date(Date.UTC(2026, 3, 1) + index * 3_600_000).toISOString(),
        description: index === 7 ? 'Fix "quotes", commas; and more' : undefined,
        author: index === 8 ? 'مطور' : 'release-bot',
      }),
      {},
      key,
    )
  }
  await r.h.drain()
  for (const query of [
    '',
    'environment=production',
    'app=checkout&since=2026-04-05',
    'changeType=initial',
  ]) {
    const response = await csv(`/v1/deployments?${query}`, key)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present')
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="deployments.csv"',
    )
    expect(response.headers.get('ratelimit-remaining')).not.toBeNull()
    const text = await response.text()
    expect(text.split('\r\n')[0]).toBe(HEADER)
    const expected = await allPages(query, key)
    expect(expected.length).toBeGreaterThan(0)
    expect({ query, rows: csvRecords(text) }).toEqual({ query, rows: expected })
  }
  expect((await csv('/v1/deployments', key).then((res) => res.text())).split('\r\n')).toHaveLength(
    232,
  )
})

test('queued deployments export too; limit and cursor do not apply; the read slot is given back', async () => {
  const key = (await r.h.createKey({ workspace: 'export-queued', rateLimitPerMinute: 100_000 })).key
  await r.postDeployment(validDeployment({ version: 'waiting' }), {}, key)
  const queued = csvRecords(await (await csv('/v1/deployments?status=queued', key)).text())
  expect(queued.map((row) => [row.version, row.status, row.recordedAt])).toEqual([
    ['waiting', 'queued', null],
  ])
  const { body: page } = await r.getJson('/v1/deployments?status=queued&limit=1', key)
  expect(page.nextCursor).toBeNull()
  const paged = await csv('/v1/deployments?limit=10', key)
  expect(paged.status).toBe(422)
  expect((await paged.json()).errors).toEqual([
    {
      field: 'limit',
      message: 'does not apply to a CSV export, which holds every matching deployment',
    },
  ])
  // A cell a spreadsheet would run as a formula is text.
  await r.postDeployment(validDeployment({ version: 'formula', description: '=1+1' }), {}, key)
  await r.h.drain()
  // A reader that stops early: the export ends, and the key reads again at once.
  const formula = csvRecords(await (await csv('/v1/deployments?version=formula', key)).text())
  expect(formula.map((row) => row.description)).toEqual(["'=1+1"])
  // More rounds than the key has read slots (2), so a slot kept by a stopped export shows.
  for (let round = 0; round < 4; round++) {
    const started = await csv('/v1/deployments', key)
    expect(started.status).toBe(200)
    await started.body?.cancel()
    await waitFor(
      async () => (await r.h.get('/v1/deployments', { key })).status === 200,
      'the export to give its read slot back',
    )
  }
})
