import { expect, test } from 'bun:test'
import {
  DeploymentFailedError,
  DeploymentWaitTimeoutError,
  networkReason,
  ShiplogError,
  ShiplogNetworkError,
} from './errors.ts'
import { QUEUED_RECEIPT } from './testing/queued-receipt.ts'

test('ShiplogError carries the status, type, problem and field errors', () => {
  const problem = {
    type: '/problems/validation-failed',
    title: 'Validation failed',
    status: 422,
    detail: 'The request has 1 invalid field.',
    errors: [{ field: 'version', message: 'is required' }],
  }
  const error = new ShiplogError(problem)
  expect(error).toBeInstanceOf(Error)
  expect(error.name).toBe('ShiplogError')
  expect(error.status).toBe(422)
  expect(error.type).toBe('/problems/validation-failed')
  expect(error.problem).toBe(problem)
  expect(error.fieldErrors).toEqual([{ field: 'version', message: 'is required' }])
  expect(error.message).toBe('422 Validation failed: version is required')
})

test('an answer that came after retries says how many and over how long', () => {
  const problem = {
    type: '/problems/unavailable',
    title: 'Unavailable',
    status: 503,
    detail: 'Later.',
  }
  const error = new ShiplogError(problem, { attempts: 9, elapsedMs: 120_000 })
  expect(error.message).toBe('503 Unavailable: Later. (after 9 attempts over 120 s)')
  expect(error).toMatchObject({ attempts: 9, elapsedMs: 120_000 })
  expect(new ShiplogError(problem).attempts).toBe(1)
})

// What Bun's fetch and Node's (undici) throw when nothing answers.
const bunRefused = Object.assign(new TypeError('ECONNREFUSED: Unable to connect.'), {
  code: 'ECONNREFUSED',
})
const nodeRefused = new TypeError('fetch failed', {
  cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' }),
})
const nodeCut = new TypeError('fetch failed', {
  cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
})

test.each([
  ['Bun, refused', bunRefused, 'ECONNREFUSED'],
  ['Node, refused', nodeRefused, 'ECONNREFUSED'],
  ['Node, cut', nodeCut, 'other side closed'],
  ['a timeout', new DOMException('The operation timed out.', 'TimeoutError'), 'no answer in time'],
])('no answer (%s) is told as %p', (_, error, reason) => {
  expect(networkReason(error)).toBe(reason)
})

test("unreachable: Node's cause is named, since its own message says only 'fetch failed'", () => {
  const error = new ShiplogNetworkError('POST', 'http://x/v1/deployments', 4, nodeRefused, 7_400)
  expect(error.message).toBe(
    'Could not reach Shiplog (POST http://x/v1/deployments) in 4 attempts over 7.4 s: fetch failed: connect ECONNREFUSED 127.0.0.1:3000',
  )
})

test('a failed deployment says why and after how many attempts', () => {
  const error = new DeploymentFailedError({
    ...QUEUED_RECEIPT,
    status: 'failed',
    failure: { reason: 'deadlock detected', attempts: 7, failedAt: '2026-05-01T12:10:00.000Z' },
  })
  expect(error.reason).toBe('deadlock detected')
  expect(error.message).toBe(
    `Deployment ${QUEUED_RECEIPT.id} failed after 7 attempts: deadlock detected`,
  )
})

test('a wait that timed out says the deployment may still be recorded', () => {
  const error = new DeploymentWaitTimeoutError(QUEUED_RECEIPT, 30_000)
  expect(error.message).toStartWith(`Deployment ${QUEUED_RECEIPT.id} was still queued after 30 s`)
  expect(error.deployment).toBe(QUEUED_RECEIPT)
})
