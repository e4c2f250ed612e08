import { expect, test } from 'bun:test'
import type { ShiplogClient } from './client.ts'
import { ShiplogError, ShiplogNetworkError } from './errors.ts'
import { describeError, exitCodeFor, runNotify } from './notify.ts'
import { UsageError } from './notify-args.ts'
import { EXAMPLE_DEPLOYMENT, EXAMPLE_SERVER } from './testing/example-plan.ts'

const problem = (status: number, errors?: { field: string; message: string }[]) =>
  new ShiplogError({ type: '/problems/x', title: 'Title', status, detail: 'Detail.', errors })

test.each([
  ['a usage error', 2, new UsageError('missing --app')],
  ['401', 2, problem(401)],
  ['404', 2, problem(404)],
  ['413', 2, problem(413)],
  ['422', 2, problem(422)],
  ['408', 1, problem(408)],
  ['429', 1, problem(429)],
  ['500', 1, problem(500)],
  ['503', 1, problem(503)],
  ['no answer', 1, new ShiplogNetworkError('POST', 'http://x/', 6, new TypeError('refused'))],
  ['any other error', 1, new Error('anything else')],
] as const)('%s exits with %p', (_, code, error) => {
  expect(exitCodeFor(error)).toBe(code)
})

test('field errors are named by field and by the flag that sets them, one a line', () => {
  const error = problem(422, [
    { field: 'commitHash', message: 'must be 7 to 70 hexadecimal characters' },
    { field: 'Idempotency-Key', message: 'was already used with a different request body' },
    { field: 'body', message: 'must be a JSON object' },
  ])
  expect(describeError(error)).toEqual([
    'error: 422 Title: Detail.',
    '  commitHash (--commit): must be 7 to 70 hexadecimal characters',
    '  Idempotency-Key (--idempotency-key): was already used with a different request body',
    '  body: must be a JSON object',
  ])
})

test('an outage retried until the budget ran out says for how long, and for notify what sets it', () => {
  const unavailable = new ShiplogError(
    { type: '/problems/unavailable', title: 'Unavailable', status: 503, detail: 'Later.' },
    { attempts: 9, elapsedMs: 120_000 },
  )
  const gaveUp = '  gave up after 9 attempts over 120 s'
  const hint = '; --retry-for (or SHIPLOG_RETRY_FOR) sets how long'
  expect(describeError(unavailable)).toEqual(['error: 503 Unavailable: Later.', gaveUp + hint])
  expect(describeError(unavailable, {}, 'incident')).toEqual([
    'error: 503 Unavailable: Later.',
    gaveUp,
  ])
  const unreachable = new ShiplogNetworkError('POST', 'http://x/', 9, new Error('refused'), 120_000)
  expect(describeError(unreachable).at(-1)).toBe(gaveUp + hint)
  // A 503 and then a refusal: retrying worked, the request did not.
  const refused = new ShiplogError(
    { type: '/problems/x', title: 'Title', status: 422, detail: 'Detail.' },
    { attempts: 2, elapsedMs: 1_000 },
  )
  expect(describeError(refused)).toEqual(['error: 422 Title: Detail.'])
})

// A plan that waits up to a second for the deployment to be recorded.
const WAITING_PLAN = {
  ...EXAMPLE_SERVER,
  input: {
    ...EXAMPLE_DEPLOYMENT,
    commitHash: 'abcdef1',
  },
  wait: true,
  timeoutMs: 1_000,
  // These tests are about the deployment; the commits have their own, against a real checkout.
  commits: false,
  requireCommits: false,
}

test('prints the id and URL, then the exit code of what went wrong', async () => {
  const lines: string[] = []
  const output = {
    out: (line: string) => lines.push(line),
    err: (line: string) => lines.push(`! ${line}`),
  }
  const client = {
    createDeployment: async () => ({
      id: 'abc',
      location: 'https://shiplog.example.com/v1/deployments/abc',
      idempotencyKey: 'k',
    }),
    waitUntilRecorded: async () => {
      throw new Error('Deployment abc was still queued after 1 s')
    },
    pageUrl: (id: string) => `https://shiplog.example.com/ui/deployments/${id}`,
  } as unknown as ShiplogClient
  expect(await runNotify(WAITING_PLAN, client, output)).toBe(1)
  expect(lines).toEqual([
    'Deployment abc accepted: checkout 1.2.3 to production',
    'https://shiplog.example.com/v1/deployments/abc',
    'Its page: https://shiplog.example.com/ui/deployments/abc',
    'Waiting up to 1 s for it to be recorded…',
    '! error: Deployment abc was still queued after 1 s',
  ])
})

test('hands the receipt to `accepted` as soon as the API accepts, before waiting', async () => {
  const events: string[] = []
  const created = { id: 'abc', location: 'https://shiplog.example.com/v1/deployments/abc' }
  const client = {
    createDeployment: async () => ({ ...created, idempotencyKey: 'k' }),
    waitUntilRecorded: async () => {
      events.push('wait')
      throw new Error('timed out')
    },
    pageUrl: (id: string) => `https://shiplog.example.com/ui/deployments/${id}`,
  } as unknown as ShiplogClient
  const code = await runNotify(WAITING_PLAN, client, {
    out: () => {},
    err: () => {},
    accepted: (receipt) => events.push(`accepted ${receipt.id} ${receipt.location}`),
  })
  expect(code).toBe(1)
  expect(events).toEqual([`accepted abc ${created.location}`, 'wait'])
})

const keyReused = new ShiplogError({
  type: '/problems/validation-failed',
  title: 'Validation failed',
  status: 422,
  detail: 'This Idempotency-Key belongs to another deployment.',
  errors: [{ field: 'Idempotency-Key', message: 'was already used with a different request body' }],
})
const RERUN_PLAN = {
  ...WAITING_PLAN,
  wait: false,
  idempotencyKey: 'github-actions-abc',
  rerun: { key: 'github-actions-abc', from: 'GITHUB_RUN_ID=7 GITHUB_JOB=deploy' },
}

/** A client whose create is refused for a reused key, and whose list finds `found`. */
const rerunClient = (found: { id: string }[]) =>
  ({
    createDeployment: async () => {
      throw keyReused
    },
    listDeployments: async () => ({ data: found, nextCursor: null }),
    receiptUrl: (id: string) => `https://shiplog.example.com/v1/deployments/${id}`,
    pageUrl: (id: string) => `https://shiplog.example.com/ui/deployments/${id}`,
  }) as unknown as ShiplogClient

test('a re-run whose fields differ records nothing, names the first run, and exits 0', async () => {
  const lines: string[] = []
  const output = {
    out: (line: string) => lines.push(line),
    err: (line: string) => lines.push(`! ${line}`),
  }
  expect(await runNotify(RERUN_PLAN, rerunClient([{ id: 'first' }]), output)).toBe(0)
  expect(lines).toEqual([
    'Deployment first accepted: checkout 1.2.3 to production (reported by an earlier run of this job, GITHUB_RUN_ID=7 GITHUB_JOB=deploy: nothing new recorded)',
    'https://shiplog.example.com/v1/deployments/first',
    'Its page: https://shiplog.example.com/ui/deployments/first',
  ])

  lines.length = 0
  expect(await runNotify(RERUN_PLAN, rerunClient([]), output)).toBe(0)
  expect(lines).toEqual([
    'This job (GITHUB_RUN_ID=7 GITHUB_JOB=deploy) already reported checkout to production with other fields, so this re-run records nothing new.',
  ])

  // A key the user chose is theirs to fix: the 422 stands.
  lines.length = 0
  const { rerun: _, ...explicit } = RERUN_PLAN
  expect(await runNotify(explicit, rerunClient([{ id: 'first' }]), output)).toBe(2)
  expect(lines[0]).toStartWith('! error: 422 Validation failed')
})
