/**
 * Validation of `POST /v1/deployments`, end to end through HTTP: unknown fields (decisions.md §3),
 * every failing field reported at once, and valid and invalid requests sent together.
 */
import { describe, expect, test } from 'bun:test'
import { UNEXPANDED_SHA } from '@shiplog/schema/testing'
import { FIELDS, REQUIRED, validationSuite } from '../../support/validation-suite.ts'

const v = validationSuite()
const { body, unique, newRows, expectAccepted, expectProblem, expectFieldError, postRaw } = v

const MISSPELLINGS = [
  ['deployed_at', 'deployedAt'],
  ['commit_hash', 'commitHash'],
  ['repository_full_name', 'repositoryFullName'],
  ['Environment', 'environment'],
  ['monorepo-path', 'monorepoPath'],
  ['autor', 'author'],
]

describe('unknown fields', () => {
  test.each(MISSPELLINGS)(
    '%s is rejected, named, with a suggestion of %s',
    async (unknown, known) => {
      const message = await expectFieldError(
        await v.h.post(body({ [unknown]: 'x' })),
        unknown,
        known,
      )
      expect(message).toMatch(/not a known field/)
    },
  )

  test('a field nothing resembles is rejected by name', async () => {
    await expectFieldError(await v.h.post(body({ buildNumber: '42' })), 'buildNumber')
  })

  test('every unknown field is listed', async () => {
    const problem = await expectProblem(
      await v.h.post(body({ deployed_at: 'x', team: 'payments', extra: 1 })),
      422,
    )
    expect(new Set(problem.errors?.map((e) => e.field))).toEqual(
      new Set(['deployed_at', 'team', 'extra']),
    )
  })

  test('__proto__ sent as a key is an unknown field, not silently dropped', async () => {
    const raw = `{"__proto__":{"admin":true},${JSON.stringify(body()).slice(1)}`
    await expectFieldError(await postRaw(raw), '__proto__')
  })

  test('an unknown field alongside a valid deployment queues nothing', async () => {
    expect(await v.h.drain()).toBe(0)
  })
})

describe('every failing field is reported at once', () => {
  test('a body with 9 different problems gets one 422 listing all 9 fields', async () => {
    const problem = await expectProblem(
      await v.h.post({
        repositoryFullName: 'owner', // no slash
        environment: '   ', // blank
        app: 'a'.repeat(256), // too long
        version: 123, // not a string
        commitHash: UNEXPANDED_SHA, // template left unexpanded
        description: 'line\u0000break', // control character
        deployedAt: '2024-02-30T00:00:00Z', // no such day
        monorepoPath: '../x', // escapes the repository
        deployed_at: '2024-05-01T12:00:00Z', // unknown field
      }),
      422,
    )
    const fields = problem.errors?.map((e) => e.field) ?? []
    // Every field of the contract but author (not sent), and the unknown one.
    const wrong = [...FIELDS.filter((field) => field !== 'author'), 'deployed_at']
    expect(new Set(fields)).toEqual(new Set(wrong))
    // At most one error per field.
    expect(fields).toHaveLength(new Set(fields).size)
  })

  test('an empty object lists every required field', async () => {
    const problem = await expectProblem(await v.h.post({}), 422)
    expect(new Set(problem.errors?.map((e) => e.field))).toEqual(new Set(REQUIRED))
  })
})

/** Sent in one burst: only the valid ones may become jobs. */
const TOGETHER_VALID = [body(), body({ app: unique('together') }), body({ author: 'mona' })]
const TOGETHER_INVALID: unknown[] = [
  body({ commitHash: 'xyz' }),
  body({ app: '😀'.repeat(256) }),
  body({ deployed_at: '2024-05-01T12:00:00Z' }),
  body({ description: 'a\u0000b' }),
  body({ monorepoPath: '/abs' }),
  [body()],
  null,
]

describe('nothing invalid is queued', () => {
  test('valid and invalid requests sent together: only the valid ones become jobs', async () => {
    const responses = await Promise.all(
      [...TOGETHER_VALID, ...TOGETHER_INVALID].map((payload) => v.h.post(payload)),
    )
    for (const response of responses.slice(0, TOGETHER_VALID.length)) {
      await expectAccepted(response)
    }
    for (const response of responses.slice(TOGETHER_VALID.length)) {
      await expectProblem(response, 422)
    }
    expect(await v.h.drain()).toBe(TOGETHER_VALID.length)
    expect(await newRows()).toHaveLength(TOGETHER_VALID.length)
  })
})

// Every row of the tables above is one request that must be accepted or rejected.
v.reconcile({
  accepted: TOGETHER_VALID.length,
  rejected: MISSPELLINGS.length + TOGETHER_INVALID.length,
})
