import { expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { validDeployment } from '@shiplog/schema/testing'
import fc from 'fast-check'
import { harnessPerFile } from '../support/harness.ts'

// PUT /v1/deployments/{id}/commits stores what a pipeline's git log listed, for a deployment
// still queued or already recorded; repeating it is harmless; GET reads it back.

const h = harnessPerFile()

const sha = (digit: string) => digit.repeat(40)
const commit = (digit: string, committedAt: string, reverts: string[] = []) => ({
  sha: sha(digit),
  committedAt,
  authoredAt: '2026-05-01T08:00:00Z',
  reverts,
})
const put = (id: string, body: unknown, key?: string) =>
  h.send('PUT', `/v1/deployments/${id}/commits`, { body, ...(key ? { key } : {}) })

const accepted = (version: string) => h.deploy(validDeployment({ version }))

test('stored while queued, read back once recorded; a repeat or a correction replaces the list', async () => {
  const id = await accepted('with-commits')
  const body = {
    commits: [
      commit('a', '2026-05-01T09:00:00Z'),
      commit('b', '2026-05-01T10:00:00+02:00', [sha('9').toUpperCase()]),
    ],
  }
  expect((await put(id, body)).status).toBe(204)
  expect((await put(id, body)).status).toBe(204)
  await h.drain()
  const read = await h.get(`/v1/deployments/${id}/commits`)
  expect(read.status).toBe(200)
  expect(await read.json()).toEqual({
    deploymentId: id,
    truncated: false,
    webUrl: null,
    commits: [
      {
        sha: sha('a'),
        committedAt: '2026-05-01T09:00:00.000Z',
        authoredAt: '2026-05-01T08:00:00.000Z',
        reverts: [],
      },
      {
        sha: sha('b'),
        committedAt: '2026-05-01T08:00:00.000Z',
        authoredAt: '2026-05-01T08:00:00.000Z',
        reverts: [sha('9')],
      },
    ],
  })
  expect(
    (await put(id, { commits: [commit('c', '2026-05-02T00:00:00Z')], truncated: true })).status,
  ).toBe(204)
  const corrected = await (await h.get(`/v1/deployments/${id}/commits`)).json()
  expect(corrected.truncated).toBe(true)
  expect(corrected.commits.map((each: { sha: string }) => each.sha)).toEqual([sha('c')])
})

test('a commit may carry its subject and author, and the list the repository’s web address; old lists stay valid', async () => {
  const id = await accepted('with-details')
  const detailed = {
    commits: [
      {
        ...commit('d', '2026-05-01T09:00:00Z'),
        subject: '  Fix the checkout total  ',
        author: 'Ada',
      },
      { ...commit('e', '2026-05-01T08:00:00Z'), subject: '', author: null },
    ],
    webUrl: 'https://github.com/acme/shop.git',
  }
  expect((await put(id, detailed)).status).toBe(204)
  const read = await (await h.get(`/v1/deployments/${id}/commits`)).json()
  expect(read.webUrl).toBe('https://github.com/acme/shop')
  expect(read.commits).toEqual([
    {
      ...commit('d', '2026-05-01T09:00:00.000Z'),
      authoredAt: '2026-05-01T08:00:00.000Z',
      subject: 'Fix the checkout total',
      author: 'Ada',
    },
    { ...commit('e', '2026-05-01T08:00:00.000Z'), authoredAt: '2026-05-01T08:00:00.000Z' },
  ])
  const refused = await put(id, {
    commits: [
      { ...commit('f', '2026-05-01T09:00:00Z'), subject: 'two\nlines', author: 'x'.repeat(201) },
    ],
    webUrl: 'https://ci:secret@gitlab.example.com/acme/shop',
  })
  expect(refused.status).toBe(422)
  expect(((await refused.json()).errors as { field: string }[]).map((each) => each.field)).toEqual([
    'webUrl',
    'commits[0].subject',
    'commits[0].author',
  ])
})

test('5,000 commits fit in one request; 5,001 do not', async () => {
  const id = await accepted('many-commits')
  const many = Array.from({ length: 5_000 }, (_, index) => ({
    ...commit('0', '2026-05-01T09:00:00Z'),
    sha: index.toString(16).padStart(40, '0'),
  }))
  expect((await put(id, { commits: many, truncated: true })).status).toBe(204)
  const read = await (await h.get(`/v1/deployments/${id}/commits`)).json()
  expect(read.commits).toHaveLength(5_000)
  const tooMany = await put(id, { commits: [...many, commit('f', '2026-05-01T09:00:00Z')] })
  expect(tooMany.status).toBe(422)
})

test('bad lists are a 422 naming each field; unknown ids 404; other scopes 403', async () => {
  const id = await accepted('bad-commits')
  const refused = await put(id, {
    commits: [
      { sha: 'abc', committedAt: 'yesterday', authoredAt: '2026-05-01T08:00:00Z', reverts: [] },
      commit('a', '2026-05-01T09:00:00Z'),
      commit('a', '2026-05-01T09:00:00Z'),
    ],
    extra: 1,
  })
  expect(refused.status).toBe(422)
  const fields = ((await refused.json()).errors as { field: string }[]).map((each) => each.field)
  expect(fields).toEqual(['extra', 'commits[0].sha', 'commits[0].committedAt', 'commits[2].sha'])
  const unknown = '01890a5d-ac96-774b-bcce-b302099a8057'
  expect((await put(unknown, { commits: [] })).status).toBe(404)
  expect((await h.get(`/v1/deployments/${unknown}/commits`)).status).toBe(404)
  const reader = (await issueApiKey(h.sql, { workspace: 'acme', name: 'r', scopes: ['read'] })).key
  expect((await put(id, { commits: [] }, reader)).status).toBe(403)
  const other = (await issueApiKey(h.sql, { workspace: 'other', name: 'o' })).key
  expect((await put(id, { commits: [] }, other)).status).toBe(404)
})

test('a commit time is bounded as deployedAt is: year 9999, or an hour ahead, is a 422 naming it', async () => {
  const id = await accepted('future-commits')
  const ahead = new Date(Date.now() + 3_600_000).toISOString()
  const refused = await put(id, {
    commits: [
      commit('a', '9999-12-31T23:59:59Z'),
      { ...commit('b', '2026-05-01T09:00:00Z'), authoredAt: ahead },
      commit('c', new Date(Date.now() + 60_000).toISOString()),
    ],
  })
  expect(refused.status).toBe(422)
  expect((await refused.json()).errors).toEqual([
    { field: 'commits[0].committedAt', message: 'must not be more than 5 minutes in the future' },
    { field: 'commits[1].authoredAt', message: 'must not be more than 5 minutes in the future' },
  ])
  // A minute ahead is clock skew, as for deployedAt.
  const skewed = await put(id, {
    commits: [commit('c', new Date(Date.now() + 60_000).toISOString())],
  })
  expect(skewed.status).toBe(204)
})

test('property: no commits body a client can send gets anything but 204 or a 4xx problem', async () => {
  const id = await accepted('fuzzed-commits')
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 50 }),
    fc.constantFrom(sha('a'), sha('B'), '2026-05-01T09:00:00Z', '', 'x'.repeat(64)),
  )
  const hex40 = fc
    .array(fc.constantFrom(...'0123456789abcdefABCDEF'), { minLength: 40, maxLength: 40 })
    .map((digits) => digits.join(''))
  const anyValue = fc.oneof(text, fc.constant(null), fc.integer(), fc.boolean(), fc.jsonValue())
  const shaped = fc.record(
    {
      sha: fc.oneof(hex40, text),
      committedAt: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        text,
      ),
      authoredAt: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        text,
      ),
      reverts: fc.oneof(fc.array(hex40, { maxLength: 3 }), anyValue),
      subject: fc.oneof(text, fc.string({ unit: 'grapheme', maxLength: 250 }), anyValue),
      author: fc.oneof(text, anyValue),
    },
    { requiredKeys: [] },
  )
  const webUrl = fc.oneof(
    fc.constantFrom(
      'https://github.com/acme/shop',
      'https://user:token@github.com/acme/shop',
      'http://github.com/acme/shop',
      'https://github.com/acme/shop?x=1',
    ),
    fc.webUrl(),
    anyValue,
  )
  const body = fc.oneof(
    fc.record(
      {
        commits: fc.array(fc.oneof(shaped, anyValue), { maxLength: 5 }),
        truncated: fc.oneof(fc.boolean(), anyValue),
        webUrl,
      },
      { requiredKeys: [] },
    ),
    fc.dictionary(fc.string(), anyValue),
    fc.jsonValue(),
  )
  const statuses = new Set<number>()
  const { key } = await issueApiKey(h.sql, {
    workspace: 'acme',
    name: 'fuzz',
    rateLimitPerMinute: 1_000_000,
  })
  await fc.assert(
    fc.asyncProperty(body, async (value) => {
      const response = await h.send('PUT', `/v1/deployments/${id}/commits`, {
        key,
        headers: { 'content-type': 'application/json' },
        rawBody: JSON.stringify(value) ?? 'null',
      })
      statuses.add(response.status)
      if (response.status === 204) return
      // The answer's body rides along, so a failure in CI says what the server answered.
      const answer = await response.text()
      // An empty list never replaces commits stored by an earlier run of this property (409).
      const emptyOverStored =
        response.status === 409 &&
        Array.isArray((value as { commits?: unknown } | null)?.commits) &&
        (value as { commits: unknown[] }).commits.length === 0
      expect({ value, status: response.status, answer }).toEqual({
        value,
        status: emptyOverStored ? 409 : response.status === 413 ? 413 : 422,
        answer,
      })
      expect(JSON.parse(answer).status).toBe(response.status)
    }),
    // Run first (nothing is stored yet), so the checks below never rest on chance.
    { numRuns: 300, examples: [[{ commits: [] }], [{ commits: 'none' }]] },
  )
  expect(statuses).toContain(204)
  expect(statuses).toContain(422)
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
})
