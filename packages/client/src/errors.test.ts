import { expect, test } from 'bun:test'
import type { DeploymentStatus } from '@shiplog/schema'
import { DeploymentFailedError, DeploymentWaitTimeoutError, ShiplogError } from './errors.ts'

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

const queued: DeploymentStatus = {
  id: '01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4',
  status: 'queued',
  repositoryFullName: 'acme/shop',
  environment: 'production',
  app: 'checkout',
  version: '1.2.3',
  commitHash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
  description: null,
  author: null,
  deployedAt: '2026-05-01T12:00:00.000Z',
  monorepoPath: null,
  receivedAt: '2026-05-01T12:00:00.000Z',
  recordedAt: null,
  changeType: null,
  changeFailure: null,
  duplicateOf: null,
  failure: null,
  voided: null,
}

test('a failed deployment says why and after how many attempts', () => {
  const error = new DeploymentFailedError({
    ...queued,
    status: 'failed',
    failure: { reason: 'deadlock detected', attempts: 7, failedAt: '2026-05-01T12:10:00.000Z' },
  })
  expect(error.reason).toBe('deadlock detected')
  expect(error.message).toBe(`Deployment ${queued.id} failed after 7 attempts: deadlock detected`)
})

test('a wait that timed out says the deployment may still be recorded', () => {
  const error = new DeploymentWaitTimeoutError(queued, 30_000)
  expect(error.message).toStartWith(`Deployment ${queued.id} was still queued after 30 s`)
  expect(error.deployment).toBe(queued)
})
