/**
 * Shared by the validation tests of `POST /v1/deployments` (decisions.md §2 and §3): the helpers
 * that send a case and check what a client sees, and the bookkeeping that ends every file.
 *
 * Bookkeeping: every accepted request drains the queue right away and expects exactly its own job,
 * so a rejected request that leaked a job would show up as an extra one. `reconcile` checks the
 * totals of the file (jobs, rows, listing) against the number of 202s it sent.
 */
import { describe, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { CONTRACT_FIELDS, type Harness, harnessPerFile } from './harness.ts'

export const FIELDS = CONTRACT_FIELDS
export type Field = (typeof FIELDS)[number]
export const REQUIRED: readonly Field[] = [
  'repositoryFullName',
  'environment',
  'app',
  'version',
  'commitHash',
]
export const OPTIONAL: readonly Field[] = ['description', 'author', 'deployedAt', 'monorepoPath']

/** A valid value of every field, for tests that put one field aside. */
export const SAMPLE = {
  ...validDeployment(),
  description: 'Hotfix for checkout timeout',
  author: 'octocat',
  deployedAt: '2024-05-01T12:00:00Z',
  monorepoPath: 'apps/checkout',
} as Record<Field, string>

export const MAX_BODY = 64 * 1024

/** A deployment row as recorded, with `deployedAt` at full (microsecond) precision in UTC. */
export interface Stored {
  id: string
  repositoryFullName: string
  environment: string
  app: string
  version: string
  commitHash: string
  description: string | null
  author: string | null
  deployedAt: string
  monorepoPath: string | null
}

interface FieldError {
  field: string
  message: string
}
export interface ProblemBody {
  type: string
  title: string
  status: number
  detail: string
  errors?: FieldError[]
}

const STACK_TRACE = /^\s*at\s|\.(?:ts|js|mjs|cjs)\b|node_modules|file:\/\/|\/work\//m

export const utf8 = new TextEncoder()
export const bytesOf = (text: string) => utf8.encode(text).byteLength
export const codePoints = (text: string) => [...text].length

/** `count` code points of `unit` (one code point or a sequence dividing `count`). */
export function repeatTo(unit: string, count: number): string {
  const n = codePoints(unit)
  if (count % n !== 0) throw new Error(`${count} is not a multiple of ${n}`)
  return unit.repeat(count / n)
}

/**
 * A harness of the file's own (fresh database, rate limit out of the way) and the helpers bound to
 * it. Call once at the top of a test file; call `reconcile` at its end.
 */
export function validationSuite() {
  // Hundreds of requests per file; the rate limit is not what these files test.
  const h = harnessPerFile({ RATE_LIMIT_PER_MINUTE: '1000000' })

  let sequence = 0
  let accepted = 0
  let rejected = 0
  const seenIds = new Set<string>()
  /** Every body the helpers read, accepted or rejected, for the final stack-trace check. */
  const bodies: string[] = []

  /**
   * A valid body with a version no other request uses, so no two accepted deployments are the same
   * delivery (which the worker would record once).
   */
  function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    sequence++
    return validDeployment({ version: `validation-${sequence}`, ...overrides })
  }

  /** A unique token for names that must not collide with an earlier test's. */
  function unique(prefix: string): string {
    sequence++
    return `${prefix}-${sequence}`
  }

  /** Rows recorded since the last call. */
  async function newRows(): Promise<Stored[]> {
    const rows = await h.sql<Stored[]>`
      select d.id::text as id, r.full_name as "repositoryFullName", e.name as environment,
             a.name as app, d.version, d.commit_hash as "commitHash", d.description, d.author,
             to_char(d.deployed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "deployedAt",
             d.monorepo_path as "monorepoPath"
        from deployments d
        join applications a on a.id = d.application_id
        join repositories r on r.id = a.repository_id
        join environments e on e.id = d.environment_id`
    const fresh = rows.filter((row) => !seenIds.has(row.id))
    for (const row of fresh) seenIds.add(row.id)
    return fresh.map((row) => ({ ...row }))
  }

  /** Asserts the exact success answer of the contract. */
  async function expectAccepted(response: Response): Promise<void> {
    const text = await response.text()
    // One assertion on both, so a failure shows the problem body that came back instead.
    expect({ status: response.status, body: text }).toEqual({ status: 202, body: '{"status":202}' })
    accepted++
    bodies.push(text)
  }

  /** Sends a body that must be accepted, runs the worker, and returns the one row it recorded. */
  async function acceptAndRecord(
    payload: unknown,
    options: Parameters<Harness['post']>[1] = {},
  ): Promise<Stored> {
    await expectAccepted(await h.post(payload, options))
    expect(await h.drain()).toBe(1)
    const rows = await newRows()
    expect(rows).toHaveLength(1)
    return rows[0] as Stored
  }

  /** Sends `payload`, which leaves deployedAt to the server: its row holds the time it was received. */
  async function expectDeployedWhenReceived(payload: unknown): Promise<void> {
    const before = Date.now()
    const response = await h.post(payload)
    const after = Date.now()
    await expectAccepted(response)
    expect(await h.drain()).toBe(1)
    const [row] = await newRows()
    const at = Date.parse(row?.deployedAt ?? '')
    expect(at).toBeGreaterThanOrEqual(before)
    expect(at).toBeLessThanOrEqual(after)
  }

  /** Asserts an RFC 9457 problem answer with `status` and returns its body. */
  async function expectProblem(response: Response, status: number): Promise<ProblemBody> {
    const text = await response.text()
    expect({ status: response.status, body: text }).toEqual({ status, body: expect.any(String) })
    expect(response.headers.get('content-type')?.split(';')[0]?.trim()).toBe(
      'application/problem+json',
    )
    expect(text).not.toMatch(STACK_TRACE)
    const problem = JSON.parse(text) as ProblemBody
    expect(problem.status).toBe(status)
    for (const member of ['type', 'title', 'detail'] as const) {
      expect(typeof problem[member]).toBe('string')
      expect(problem[member].length).toBeGreaterThan(0)
    }
    if (status === 422) {
      expect(Array.isArray(problem.errors)).toBe(true)
      expect(problem.errors?.length).toBeGreaterThan(0)
      for (const error of problem.errors ?? []) {
        expect(typeof error.field).toBe('string')
        expect(typeof error.message).toBe('string')
        expect(error.message.length).toBeGreaterThan(0)
      }
    } else {
      expect(problem.errors).toBeUndefined()
    }
    rejected++
    bodies.push(text)
    return problem
  }

  /** Asserts a 422 whose only error is on `field`, and returns that error's message. */
  async function expectFieldError(
    response: Response,
    field: string,
    message?: RegExp | string,
  ): Promise<string> {
    const problem = await expectProblem(response, 422)
    expect(problem.errors?.map((e) => e.field)).toEqual([field])
    const text = problem.errors?.[0]?.message ?? ''
    if (typeof message === 'string') expect(text).toContain(message)
    else if (message) expect(text).toMatch(message)
    return text
  }

  /** `POST` of a raw body; `contentType: null` sends none (only a Uint8Array body carries none). */
  function postRaw(raw: BodyInit | undefined, contentType: string | null = 'application/json') {
    const headers: Record<string, string> =
      contentType === null ? {} : { 'content-type': contentType }
    return h.post(undefined, { rawBody: raw, headers })
  }

  /**
   * The totals of the file, as its last tests: every 202 became exactly one row (and is listed), no
   * rejection left a job or a row, no body carried a stack trace, and at least `minimum` requests
   * of each kind were sent (derived by the file from its case tables).
   */
  function reconcile(minimum: { accepted: number; rejected: number }): void {
    describe('nothing invalid is queued', () => {
      test('after all the rejected requests, the queue holds no job', async () => {
        expect(rejected).toBeGreaterThanOrEqual(minimum.rejected)
        expect(await h.drain()).toBe(0)
      })

      test('the database holds exactly one deployment per 202 sent', async () => {
        expect(accepted).toBeGreaterThanOrEqual(minimum.accepted)
        expect(await h.deploymentCount()).toBe(accepted)
        expect(seenIds.size).toBe(accepted)
      })

      test('the listing returns every accepted deployment', async () => {
        const ids: string[] = []
        let cursor: string | null = null
        do {
          const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`
          const response = await h.get(`/v1/deployments?limit=100${query}`)
          const text = await response.text()
          expect({ status: response.status, body: text }).toEqual({
            status: 200,
            body: expect.any(String),
          })
          const page = JSON.parse(text) as { data: { id: string }[]; nextCursor: string | null }
          ids.push(...page.data.map((d) => d.id))
          cursor = page.nextCursor
        } while (cursor !== null)
        expect(ids).toHaveLength(accepted)
        expect(new Set(ids)).toEqual(seenIds)
      })

      test('no answer carried a stack trace', () => {
        expect(bodies).toHaveLength(accepted + rejected)
        expect(bodies.filter((text) => STACK_TRACE.test(text))).toEqual([])
      })
    })
  }

  return {
    /** The file's harness; read it inside tests, once `beforeAll` has run. */
    h,
    /** The 202s counted so far in this file. */
    get accepted(): number {
      return accepted
    },
    body,
    unique,
    newRows,
    expectAccepted,
    acceptAndRecord,
    expectDeployedWhenReceived,
    expectProblem,
    expectFieldError,
    postRaw,
    reconcile,
  }
}
