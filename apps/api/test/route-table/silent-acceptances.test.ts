import { expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import fc from 'fast-check'
import { repeatedKey } from '../../src/route-table/duplicate-keys.ts'
import { harnessPerFile } from '../support/harness.ts'

// What a client sends that would mean one thing to its own tooling and another to Shiplog is
// refused with a problem naming it, never taken silently: a key sent twice (JSON.parse keeps the
// last), a body declared in another charset, a query parameter that is not UTF-8.

const h = harnessPerFile()

const deploymentText = JSON.stringify(validDeployment())
const json = { 'content-type': 'application/json' }

test('a body holding a key twice is a 422 naming the key; nothing is queued', async () => {
  const twice = `{"app":"checkout","app":"billing",${deploymentText.slice(1)}`
  const nested = JSON.stringify({ ...validDeployment(), version: '1.0.0' }).replace(
    '"version":"1.0.0"',
    '"version":"1.0.0","\\u0076ersion":"2.0.0"',
  )
  for (const [body, key] of [
    [twice, 'app'],
    [nested, 'version'],
  ]) {
    const answer = await h.send('POST', '/v1/deployments', { rawBody: body, headers: json })
    expect(answer.status).toBe(422)
    const problem = await answer.json()
    expect(problem.errors).toEqual([
      {
        field: 'body',
        message: `holds the key "${key}" twice in one object: send each field once`,
      },
    ])
  }
  const [queued] = await h.sql<
    { count: number }[]
  >`select count(*)::int as count from deployment_inbox`
  expect(queued?.count).toBe(0)
  // The same key in two objects is two fields, not one twice.
  const commits = JSON.stringify({
    commits: [
      {
        sha: 'a'.repeat(40),
        committedAt: '2026-05-01T09:00:00Z',
        authoredAt: '2026-05-01T09:00:00Z',
        reverts: [],
      },
      {
        sha: 'b'.repeat(40),
        committedAt: '2026-05-01T09:00:00Z',
        authoredAt: '2026-05-01T09:00:00Z',
        reverts: [],
      },
    ],
  })
  const id = await h.deploy(validDeployment({ version: 'two-objects' }))
  expect(
    (await h.send('PUT', `/v1/deployments/${id}/commits`, { rawBody: commits, headers: json }))
      .status,
  ).toBe(204)
})

test('a body declared in a charset other than UTF-8 is a 422 saying which; UTF-8 spelled either way is taken', async () => {
  const declared = async (contentType: string) =>
    h.send('POST', '/v1/deployments', {
      rawBody: JSON.stringify(validDeployment({ version: contentType.length.toString() })),
      headers: { 'content-type': contentType },
    })
  const latin = await declared('application/json; charset=iso-8859-1')
  expect(latin.status).toBe(422)
  expect((await latin.json()).errors).toEqual([
    {
      field: 'body',
      message: 'must be UTF-8, as JSON is (Content-Type says charset=iso-8859-1)',
    },
  ])
  expect((await declared('application/json; charset="UTF-8"')).status).toBe(202)
  expect((await declared('application/json;charset=utf8')).status).toBe(202)
})

test('a query parameter whose percent-encoding is not UTF-8 is a 422 naming it', async () => {
  const answer = await h.get('/v1/deployments?app=%ff%fe&environment=production')
  expect(answer.status).toBe(422)
  expect((await answer.json()).errors).toEqual([
    {
      field: 'app',
      message: 'is not percent-encoded UTF-8: encode the text as UTF-8 before escaping it',
    },
  ])
  expect((await h.get('/v1/deployments?app=caf%C3%A9')).status).toBe(200)
})

test('property: repeatedKey finds a key repeated in any object, and nothing in what JSON.stringify writes', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => repeatedKey(JSON.stringify(value)) === undefined),
  )
  fc.assert(
    fc.property(
      fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }),
      fc.nat(),
      fc.jsonValue(),
      (object, pick, again) => {
        const keys = Object.keys(object)
        const key = keys[pick % keys.length] as string
        // The repeat written escaped, as a client may: JSON.parse reads it as the same key.
        const escaped = JSON.stringify(key).replace(
          /[a-z]/,
          (letter) => `\\u00${letter.charCodeAt(0).toString(16)}`,
        )
        const text = `{"wrapper":[${JSON.stringify(object).slice(0, -1)},${escaped}:${JSON.stringify(again)}}]}`
        return repeatedKey(text) === key
      },
    ),
  )
})
