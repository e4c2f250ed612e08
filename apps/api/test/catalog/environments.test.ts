/** Environments in pipeline order, production marked: by the rule of their names until set. */
import { expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import type { Scope } from '@shiplog/schema'
import { validDeployment } from '@shiplog/schema/testing'
import fc from 'fast-check'
import { readSuite } from '../support/read-suite.ts'
import { ifSendable } from '../support/sendable.ts'

const r = readSuite()

async function deployTo(key: string, environments: string[]) {
  for (const environment of environments) {
    await r.postDeployment(validDeployment({ environment, version: environment }), {}, key)
  }
  await r.h.drain()
}

/** An admin key of `workspace`: admins may place environments. */
const adminOf = async (workspace: string, rateLimitPerMinute = 100_000) =>
  (await r.h.createKey({ workspace, scopes: ['admin'], rateLimitPerMinute })).key

const placesOf = (body: {
  data: { environment: string; position: number; production: boolean }[]
}) => body.data.map((e) => [e.environment, e.position, e.production])

test('GET /v1/environments lists them in pipeline order by the rule, production marked, and /v1/state’s columns follow', async () => {
  const key = (await r.h.createKey({ workspace: 'pipeline', rateLimitPerMinute: 100_000 })).key
  await deployTo(key, ['staging', 'production', 'dev', 'eu-production', 'perf'])
  const { body } = await r.getJson('/v1/environments', key)
  expect(placesOf(body)).toEqual([
    ['dev', 10, false],
    ['perf', 30, false],
    ['staging', 40, false],
    ['eu-production', 50, true],
    ['production', 50, true],
  ])
  const state = await r.getJson('/v1/state', key)
  expect(state.body.environments).toEqual(['dev', 'perf', 'staging', 'eu-production', 'production'])
  expect(state.body.rows[0].cells.map((cell: { environment: string }) => cell.environment)).toEqual(
    state.body.environments,
  )
})

test('PUT /v1/environments/{name} sets a place (with an admin key); null goes back to the rule', async () => {
  const key = await adminOf('placing')
  const reader = (await r.h.createKey({ workspace: 'placing', rateLimitPerMinute: 100_000 })).key
  await deployTo(key, ['staging', 'production', 'perf'])
  const put = (name: string, body: unknown, withKey = key) =>
    r.h.send('PUT', `/v1/environments/${encodeURIComponent(name)}`, { key: withKey, body })

  const placed = await put('PERF', { position: 45, production: true })
  expect(placed.status).toBe(200)
  expect(await placed.json()).toMatchObject({ environment: 'perf', position: 45, production: true })
  expect(placesOf((await r.getJson('/v1/environments', key)).body)).toEqual([
    ['staging', 40, false],
    ['perf', 45, true],
    ['production', 50, true],
  ])
  // A field left out stays; null goes back to the rule.
  expect((await (await put('perf', { production: null })).json()).production).toBe(false)
  expect((await (await put('perf', { position: null })).json()).position).toBe(30)

  const refused = await put('perf', { position: 1001, production: 'yes', postion: 1 })
  expect(refused.status).toBe(422)
  expect((await refused.json()).errors).toEqual([
    { field: 'position', message: 'must be a whole number from 0 to 1000, or null' },
    { field: 'production', message: 'must be true, false or null' },
    { field: 'postion', message: 'is not a known field; did you mean "position"?' },
  ])
  expect((await put('perf', {})).status).toBe(422)
  expect((await put('nowhere', { position: 1 })).status).toBe(404)
  expect((await put('perf', { position: 1 }, reader)).status).toBe(403)
  // Another workspace's environment of the same name is not this one.
  const stranger = await adminOf('elsewhere')
  expect((await put('perf', { position: 1 }, stranger)).status).toBe(404)
})

test('PUT /v1/environments/{name} needs environments:write: a key with only it may, read and deployments:write may not, admin still may', async () => {
  const keyWith = async (name: string, scopes: Scope[]) =>
    (await issueApiKey(r.h.sql, { workspace: 'placing-scopes', name, scopes })).key
  const pipeline = await keyWith('pipeline', ['read', 'deployments:write'])
  await deployTo(pipeline, ['staging', 'production'])
  const put = (withKey: string, position: number) =>
    r.h.send('PUT', '/v1/environments/staging', { key: withKey, body: { position } })

  const placer = await put(await keyWith('placer', ['environments:write']), 41)
  expect({ status: placer.status, body: await placer.json() }).toMatchObject({
    status: 200,
    body: { environment: 'staging', position: 41 },
  })
  const refused = await put(pipeline, 42)
  expect(refused.status).toBe(403)
  const problem = await refused.json()
  expect(problem.type).toBe('/problems/forbidden')
  expect(problem.detail).toContain('needs environments:write')
  const admin = await put(await keyWith('admin', ['admin']), 43)
  expect({ status: admin.status, position: (await admin.json()).position }).toEqual({
    status: 200,
    position: 43,
  })
  // The refused request changed nothing: the admin's place is the one listed.
  expect(placesOf((await r.getJson('/v1/environments', pipeline)).body)[0]).toEqual([
    'staging',
    43,
    false,
  ])
})

test('property: no name or body a client sends to PUT /v1/environments/{name} gets anything but 200 or a 4xx', async () => {
  const key = await adminOf('placing-fuzz', 10_000_000)
  await deployTo(key, ['production', 'staging'])
  const name = fc.oneof(
    fc.constantFrom('production', 'STAGING', 'nowhere', '%00', '%ZZ', 'a%2Fb', 'x'.repeat(300)),
    fc.string({ unit: 'binary', maxLength: 20 }).map(encodeURIComponent),
  )
  const anyValue = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.string())
  const body = fc.oneof(
    fc.record(
      { position: fc.oneof(fc.integer({ min: -5, max: 1005 }), anyValue), production: anyValue },
      { requiredKeys: [] },
    ),
    fc.dictionary(fc.string({ maxLength: 10 }), anyValue),
    fc.jsonValue(),
  )
  const statuses = new Set<number>()
  await fc.assert(
    fc.asyncProperty(name, body, async (environment, value) => {
      const response = await ifSendable(() =>
        r.h.send('PUT', `/v1/environments/${environment}`, {
          key,
          headers: { 'content-type': 'application/json' },
          rawBody: JSON.stringify(value) ?? 'null',
        }),
      )
      if (!response) return
      statuses.add(response.status)
      expect({ environment, value, status: response.status < 500 }).toEqual({
        environment,
        value,
        status: true,
      })
    }),
    // Run first, so the checks below that a place was set and one refused never rest on chance.
    {
      numRuns: 300,
      examples: [
        ['production', { position: 1, production: true }],
        ['production', { position: 'first' }],
      ],
    },
  )
  expect(statuses).toContain(200)
  expect(statuses).toContain(422)
  expect(r.h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
})
