/**
 * Validation of `POST /v1/deployments`, end to end through HTTP: the shape and size of the body
 * as a whole, and the RFC 9457 problem body every rejection gets.
 */
import { describe, expect, test } from 'bun:test'
import { bytesOf, MAX_BODY, utf8, validationSuite } from '../../support/validation-suite.ts'

const v = validationSuite()
const { body, acceptAndRecord, expectProblem, expectFieldError, postRaw } = v

/** A JSON deployment body of exactly `bytes` bytes, padded in `description` with `pad`. */
function bodyOfBytes(bytes: number, pad = 'x'): string {
  const base = body({ description: '' })
  const empty = JSON.stringify(base)
  const missing = bytes - bytesOf(empty)
  const unit = bytesOf(pad)
  if (missing < 0 || missing % unit !== 0) throw new Error(`cannot pad to ${bytes} bytes`)
  const text = JSON.stringify({ ...base, description: pad.repeat(missing / unit) })
  expect(bytesOf(text)).toBe(bytes)
  return text
}

const validJson = () => JSON.stringify(body())

const NOT_A_DEPLOYMENT: [string, () => string, string][] = [
  ['malformed JSON', () => '{"app": "checkout",', 'application/json'],
  ['a JSON array', () => `[${validJson()}]`, 'application/json'],
  ['a JSON string', () => '"acme/shop"', 'application/json'],
  ['a JSON number', () => '202', 'application/json'],
  ['JSON null', () => 'null', 'application/json'],
  ['an empty body', () => '', 'application/json'],
  ['a JSON body sent as text/plain', validJson, 'text/plain'],
  ['a JSON body sent as a form', validJson, 'application/x-www-form-urlencoded'],
]
const INVALID_UTF8: [string, number[]][] = [
  ['a 0xFF byte', [0xff]],
  ['a truncated 2-byte sequence', [0xc3]],
  ['an overlong encoding of "/"', [0xc0, 0xaf]],
  ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
]

describe('body shape', () => {
  test.each(NOT_A_DEPLOYMENT)(
    '%s is rejected with an error on body',
    async (_, raw, contentType) => {
      await expectFieldError(await postRaw(raw(), contentType), 'body')
    },
  )

  test('no body at all is rejected with an error on body', async () => {
    await expectFieldError(await postRaw(undefined), 'body')
  })

  test('a JSON body without a Content-Type is rejected with an error on body', async () => {
    const message = await expectFieldError(
      await postRaw(utf8.encode(validJson()), null),
      'body',
      /Content-Type/,
    )
    expect(message).toContain('application/json')
  })

  test.each(INVALID_UTF8)(
    'invalid UTF-8 (%s inside a string) is rejected with an error on body',
    async (_, bad) => {
      const [head, tail] = validJson().split('checkout')
      const bytes = new Uint8Array([
        ...utf8.encode(`${head}check`),
        ...bad,
        ...utf8.encode(`out${tail}`),
      ])
      await expectFieldError(await postRaw(bytes), 'body', /UTF-8/)
    },
  )

  test('Content-Type with a charset parameter is accepted', async () => {
    await acceptAndRecord(undefined, {
      rawBody: validJson(),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
  })

  test('a body of 64 KiB + 1 byte is rejected with 413', async () => {
    const raw = bodyOfBytes(MAX_BODY + 1)
    const problem = await expectProblem(await postRaw(raw), 413)
    expect(problem.detail).toContain(String(MAX_BODY))
  })

  test('a body of 64 KiB + 1 byte declared in Content-Length is rejected with 413', async () => {
    const raw = bodyOfBytes(MAX_BODY + 1)
    const response = await v.h.post(undefined, {
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'content-length': String(MAX_BODY + 1) },
    })
    await expectProblem(response, 413)
  })

  test('the 64 KiB limit counts bytes: 16,400 emoji (32,800 UTF-16 units) are too large', async () => {
    const raw = JSON.stringify(body({ description: '😀'.repeat(16_400) }))
    expect(raw.length).toBeLessThan(MAX_BODY)
    expect(bytesOf(raw)).toBeGreaterThan(MAX_BODY)
    await expectProblem(await postRaw(raw), 413)
  })

  test('a body of exactly 64 KiB is read: its overlong description gets 422, not 413', async () => {
    const response = await postRaw(bodyOfBytes(MAX_BODY))
    await expectFieldError(response, 'description', '255')
  })

  test('a body just under 64 KiB with an overlong field gets 422, not 413', async () => {
    const response = await postRaw(bodyOfBytes(MAX_BODY - 100))
    await expectFieldError(response, 'description', '255')
  })

  test('an oversized body with a wrong API key gets 401: authentication comes first', async () => {
    const response = await v.h.post(undefined, {
      key: 'shiplog_wrong',
      rawBody: bodyOfBytes(MAX_BODY + 1),
      headers: { 'content-type': 'application/json' },
    })
    await expectProblem(response, 401)
  })
})

describe('problem details', () => {
  test('a 422 is application/problem+json with type, title, status, detail and errors', async () => {
    const response = await v.h.post(body({ commitHash: 'nope' }))
    expect(response.headers.get('content-type')).toStartWith('application/problem+json')
    const problem = await expectProblem(response, 422)
    expect(Object.keys(problem).sort()).toEqual(['detail', 'errors', 'status', 'title', 'type'])
    expect(problem.errors).toEqual([{ field: 'commitHash', message: expect.any(String) }])
  })

  test('a 413 is application/problem+json without errors', async () => {
    const problem = await expectProblem(await postRaw(bodyOfBytes(MAX_BODY + 1)), 413)
    expect(Object.keys(problem).sort()).toEqual(['detail', 'status', 'title', 'type'])
  })

  test('deeply nested JSON gets a 422 problem, never a 500 or a stack trace', async () => {
    const nested = `{"app":${'['.repeat(30_000)}${']'.repeat(30_000)}}`
    expect(bytesOf(nested)).toBeLessThan(MAX_BODY)
    const problem = await expectProblem(await postRaw(nested), 422)
    expect(problem.errors?.map((e) => e.field)).toContainEqual(
      expect.stringMatching(/^(body|app)$/),
    )
  })
})

// Every row of the tables above is one request that must be rejected; the one body this file
// must accept is not in a table.
v.reconcile({ accepted: 0, rejected: NOT_A_DEPLOYMENT.length + INVALID_UTF8.length })
