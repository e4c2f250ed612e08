import { expect, test } from 'bun:test'
import { CommitOutcomeUnknown, QueueUnavailable } from '@shiplog/db/queue'
import { HttpProblem } from '../../kernel/problems.ts'
import { acceptanceProblem } from './service.ts'

const cut = Object.assign(new Error('connection closed'), { code: 'CONNECTION_CLOSED' })

test("the queue's failures: not queued is 503 unavailable, an unknown commit 503 outcome-unknown", () => {
  const unavailable = acceptanceProblem(new QueueUnavailable(cut)) as HttpProblem
  expect(unavailable).toBeInstanceOf(HttpProblem)
  expect(unavailable.toBody()).toMatchObject({ type: '/problems/unavailable', status: 503 })
  expect(unavailable.detail).toContain('could not be queued')
  expect(unavailable.headers['Retry-After']).toBe('2')
  const unknown = acceptanceProblem(new CommitOutcomeUnknown(cut)) as HttpProblem
  expect(unknown.toBody()).toMatchObject({ type: '/problems/outcome-unknown', status: 503 })
  expect(unknown.headers['Retry-After']).toBe('5')
})

test('anything else is not the queue’s to map: it goes on as it was thrown', () => {
  const bug = new TypeError('a bug')
  expect(acceptanceProblem(bug)).toBe(bug)
})
