import { beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { validDeployment } from '@shiplog/schema/testing'
import type { TObject, TSchema } from '@sinclair/typebox'
import fc from 'fast-check'
import { API_ROUTES } from '../../src/routes.ts'
import { harnessPerFile } from '../support/harness.ts'

// Look-alike names: `checkout` and `checkout` + U+200B must not be two applications, and a
// U+202E must not reverse the page around a name. Every name a client writes or filters by
// refuses invisible and bidi code points with a 422 naming them, and is stored in NFC.

const h = harnessPerFile()
let admin: string
beforeAll(async () => {
  admin = (
    await issueApiKey(h.sql, {
      workspace: 'acme',
      name: 'admin',
      scopes: ['admin'],
      rateLimitPerMinute: 1_000_000,
    })
  ).key
  expect((await h.post(validDeployment())).status).toBe(202)
  await h.drain()
})

// The code points the rule refuses, written out here from Unicode's Default_Ignorable_Code_Point
// list (which holds every bidi control) rather than taken from the code under test; plus the C1
// controls and the line and paragraph separators.
const REFUSED_RANGES: [number, number][] = [
  [0x0080, 0x009f],
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x2028, 0x2029],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfff8],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
]
const isRefused = (codePoint: number) =>
  REFUSED_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last)
const hex = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`

const asName = (field: string, text: string) =>
  field === 'repositoryFullName' || field === 'repository' ? `acme/${text}` : text

/** The name properties of a request schema: every one must follow the names rule. */
function nameFields(schema: TSchema | undefined): string[] {
  const properties = (schema as TObject | undefined)?.properties ?? {}
  return Object.entries<TSchema>(properties)
    .filter(([field]) => /^(app|environment|repository|repositoryFullName|from|to)$/.test(field))
    .map(([field, property]) => {
      const format = property.format ?? property.anyOf?.[0]?.format
      expect({ field, format }).toEqual({ field, format: 'name' })
      return field
    })
}

const SAMPLE: Record<string, string> = {
  environment: 'production',
  app: 'checkout',
  from: 'staging',
  to: 'production',
}

test('every name a route takes, in a body or a query, refuses a bidi control with a 422 naming it', async () => {
  const refused = 'check\u202Eout'
  let checked = 0
  for (const route of API_ROUTES) {
    const query = route.query === 'ignored' ? undefined : route.query
    for (const field of nameFields(query)) {
      const params = new URLSearchParams()
      for (const required of query?.required ?? []) params.set(required, SAMPLE[required] ?? 'x')
      params.set(field, asName(field, refused))
      const response = await h.get(`${route.path}?${params}`, { key: admin })
      expect({ path: route.path, field, status: response.status }).toEqual({
        path: route.path,
        field,
        status: 422,
      })
      expect((await response.json()).errors).toContainEqual({
        field,
        message: expect.stringContaining('U+202E RIGHT-TO-LEFT OVERRIDE'),
      })
      checked++
    }
    for (const field of nameFields(route.body?.schema)) {
      const valid =
        route.path === '/v1/incidents'
          ? { environment: 'production', title: 'x' }
          : validDeployment()
      const response = await h.send(route.method, route.path, {
        key: admin,
        body: { ...valid, [field]: asName(field, refused) },
      })
      expect({ path: route.path, field, status: response.status }).toEqual({
        path: route.path,
        field,
        status: 422,
      })
      expect((await response.json()).errors).toEqual([
        { field, message: expect.stringContaining('U+202E RIGHT-TO-LEFT OVERRIDE') },
      ])
      checked++
    }
  }
  // Deployments (3 fields, 3 filters), applications and state (1 each), incidents (2 and 2),
  // the metrics (3 and 1), compare (4), commits (3).
  expect(checked).toBe(23)
  // A name in a path: the environment whose place is set.
  const placed = await h.send('PUT', `/v1/environments/${encodeURIComponent(refused)}`, {
    key: admin,
    body: { position: 1 },
  })
  expect(placed.status).toBe(422)
  expect(JSON.stringify((await placed.json()).errors)).toContain('U+202E RIGHT-TO-LEFT OVERRIDE')
})

test('every invisible or bidi code point is refused in a name, and named by the 422', async () => {
  const edges = REFUSED_RANGES.flat()
  for (const codePoint of new Set(edges)) {
    const response = await h.post(
      validDeployment({ app: `check${String.fromCodePoint(codePoint)}out` }),
    )
    expect({ codePoint: hex(codePoint), status: response.status }).toEqual({
      codePoint: hex(codePoint),
      status: 422,
    })
    const [error] = (await response.json()).errors
    expect(error).toEqual({ field: 'app', message: expect.stringContaining(hex(codePoint)) })
  }
  expect(await h.drain()).toBe(0)
})

/**
 * What "looks the same" means: default-ignorables removed, compatibility forms folded (NFKC), any
 * case under full case mapping (ß is SS), and the dot of a Turkish İ dropped.
 */
const lookalikeKey = (name: string) => {
  let key = [...name].filter((char) => !isRefused(char.codePointAt(0) as number)).join('')
  for (let round = 0; round < 4; round++) {
    key = key.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC')
  }
  return key.replaceAll('i\u0307', 'i')
}

// Marks (accents) written on nothing, a space or punctuation: a name of its own that looks empty.
const strayMark = (name: string) => /(?:^|[^\p{L}\p{N}\p{M}])\p{M}/u.test(name.normalize('NFC'))

test('property: random Unicode names never give two stored names that look the same, in any case', async () => {
  const lookalike = fc.constantFrom(
    'a',
    'A',
    'é',
    'e\u0301',
    'E\u0301',
    'Å',
    'A\u030A',
    '\u212B',
    'İ',
    'ı',
    'I',
    'ß',
    'SS',
    'ｓ',
    '\u0301',
    '\u200B',
    '\u200D',
    '\u202E',
    '\u2066',
    '\u00AD',
    '\uFE0F',
    '\u{E0061}',
    '\u0085',
    '\u3164',
    ' ',
    '😀',
  )
  const anyCodePoint = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })
  const name = fc.string({
    unit: fc.oneof({ weight: 4, arbitrary: lookalike }, { weight: 1, arbitrary: anyCodePoint }),
    minLength: 1,
    maxLength: 4,
  })
  let accepted = 0
  await fc.assert(
    fc.asyncProperty(name, name, async (app, environment) => {
      const response = await h.post(validDeployment({ app, environment }), { key: admin })
      const expected: { field: string; message: unknown }[] = []
      for (const [field, value] of Object.entries({ environment, app })) {
        // As decisions.md orders the rules: control characters anywhere, then trimmed.
        const control = [...value].some((char) => {
          const codePoint = char.codePointAt(0) as number
          return codePoint <= 0x1f || codePoint === 0x7f
        })
        const trimmed = value.trim()
        const refused = [...trimmed].map((char) => char.codePointAt(0) as number).find(isRefused)
        if (control) expected.push({ field, message: 'must not contain control characters' })
        else if (trimmed === '') expected.push({ field, message: 'must not be empty' })
        else if (refused !== undefined)
          expected.push({ field, message: expect.stringContaining(`contain ${hex(refused)}`) })
        else if (strayMark(trimmed))
          expected.push({ field, message: expect.stringContaining('on its own') })
        else if (lookalikeKey(trimmed) !== trimmed.normalize('NFC').toLowerCase())
          expected.push({ field, message: expect.stringContaining('matched ignoring case') })
      }
      if (expected.length === 0) {
        expect(response.status).toBe(202)
        accepted++
        return
      }
      expect(response.status).toBe(422)
      expect((await response.json()).errors).toEqual(expected)
    }),
    { numRuns: 400 },
  )
  expect(accepted).toBeGreaterThan(20)
  await h.drain()
  for (const table of ['applications', 'environments'] as const) {
    const rows = await h.sql<{ name: string }[]>`select name from ${h.sql(table)}`
    const names = rows.map((row) => row.name)
    for (const stored of names) {
      expect([...stored].map((char) => char.codePointAt(0) as number).filter(isRefused)).toEqual([])
      expect(stored).toBe(stored.normalize('NFC'))
    }
    const keys = names.map(lookalikeKey)
    expect({ table, lookalikes: keys.filter((key, index) => keys.indexOf(key) !== index) }).toEqual(
      { table, lookalikes: [] },
    )
  }
})

// U+FB2C (HEBREW LETTER SHIN WITH DAGESH AND SHIN DOT) is one code point that NFC writes as three.
const GROWS = '\uFB2C'

test('a name’s limit holds for its stored NFC form: what grows past it is a 422, and what fits can be filtered and named', async () => {
  const tooLong = GROWS.repeat(255)
  const refused = await h.post(
    validDeployment({ app: tooLong, environment: GROWS.repeat(100), version: 'grows' }),
  )
  expect(refused.status).toBe(422)
  expect((await refused.json()).errors).toEqual([
    {
      field: 'environment',
      message:
        'must be at most 255 characters in Unicode NFC, the form names are stored in (got 300)',
    },
    {
      field: 'app',
      message:
        'must be at most 255 characters in Unicode NFC, the form names are stored in (got 765)',
    },
  ])
  // 85 grow to exactly 255: stored, listed under the name the API returns, and an incident can
  // name the application.
  const fits = GROWS.repeat(85)
  expect((await h.post(validDeployment({ app: fits, version: 'fits' }))).status).toBe(202)
  await h.drain()
  const listed = await h.get(`/v1/deployments?app=${encodeURIComponent(fits)}`, { key: admin })
  expect(listed.status).toBe(200)
  const [stored] = (await listed.json()).data
  expect([...stored.app].length).toBe(255)
  const again = await h.get(`/v1/deployments?app=${encodeURIComponent(stored.app)}`, { key: admin })
  expect((await again.json()).data).toHaveLength(1)
  const incidentKey = (
    await issueApiKey(h.sql, { workspace: 'acme', name: 'incidents', scopes: ['incidents:write'] })
  ).key
  const incident = await h.send('POST', '/v1/incidents', {
    key: incidentKey,
    body: { environment: 'production', app: stored.app, title: 'A long name' },
  })
  expect(incident.status).toBe(201)
  // A query parameter that grows past its limit is refused the same way, not matched.
  const filter = await h.get(`/v1/deployments?app=${encodeURIComponent(tooLong.slice(0, 86))}`, {
    key: admin,
  })
  expect(filter.status).toBe(422)
})

test('PRODUCTİON and other look-alikes are refused naming the letter and the name to write, in a body and a filter', async () => {
  const refused = await h.post(validDeployment({ environment: 'PRODUCTİON', app: 'ｃheckout' }))
  expect(refused.status).toBe(422)
  expect((await refused.json()).errors).toEqual([
    {
      field: 'environment',
      message:
        'must not contain U+0130 (İ): names are matched ignoring case, and this one would be apart from "production", which reads the same; write it "production", in any case',
    },
    { field: 'app', message: expect.stringContaining('write it "checkout"') },
  ])
  const filter = await h.get('/v1/deployments?environment=PRODUCT%C4%B0ON', { key: admin })
  expect(filter.status).toBe(422)
  const lone = await h.post(validDeployment({ app: '\u0301' }))
  expect((await lone.json()).errors).toEqual([
    {
      field: 'app',
      message:
        'must not contain U+0301 on its own: a combining mark must follow the letter it marks',
    },
  ])
  // What the 422 says to write joins production's figures.
  expect(
    (await h.post(validDeployment({ environment: 'PRODUCTION', version: 'caps' }))).status,
  ).toBe(202)
  await h.drain()
  const environments = await h.sql<{ name: string }[]>`select name from environments`
  expect(
    environments.map((row) => lookalikeKey(row.name)).filter((key) => key === 'production'),
  ).toHaveLength(1)
})
