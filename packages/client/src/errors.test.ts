import { expect, test } from 'bun:test'
import { DeploymentFailedError, DeploymentWaitTimeoutError, ShiplogError } from './errors.ts'
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
