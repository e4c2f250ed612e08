import { expect, test } from 'bun:test'
import type { DeploymentStatus } from '@shiplog/schema'
import { DeploymentFailedError, DeploymentWaitTimeoutError } from './errors.ts'
import { QUEUED_RECEIPT } from './testing/queued-receipt.ts'
import { pollUntilRecorded } from './wait.ts'

/** A fake clock that only moves when the loop sleeps, and the statuses the server reports. */
function scripted(...statuses: Partial<DeploymentStatus>[]) {
  let clock = 0
  const slept: number[] = []
  let polls = 0
  return {
    slept,
    polls: () => polls,
    get: async () => ({
      ...QUEUED_RECEIPT,
      ...(statuses[Math.min(polls++, statuses.length - 1)] ?? {}),
    }),
    sleep: async (ms: number) => {
      slept.push(ms)
      clock += ms
    },
    now: () => clock,
  }
}

test('polls at the interval until recorded', async () => {
  const server = scripted({}, {}, { status: 'recorded', recordedAt: '2026-05-01T12:00:01.000Z' })
  const recorded = await pollUntilRecorded(server.get, { ...server, intervalMs: 250 })
  expect(recorded.status).toBe('recorded')
  expect(server.polls()).toBe(3)
  expect(server.slept).toEqual([250, 250])
})

test('a failed deployment throws with its reason', async () => {
  const failure = { reason: 'boom', attempts: 3, failedAt: '2026-05-01T12:10:00.000Z' }
  const server = scripted({}, { status: 'failed', failure })
  const error = await pollUntilRecorded(server.get, server).catch((caught) => caught)
  expect(error).toBeInstanceOf(DeploymentFailedError)
  expect(error.reason).toBe('boom')
})

test('gives up at the deadline, polling once more exactly on it', async () => {
  const server = scripted({})
  const error = await pollUntilRecorded(server.get, {
    ...server,
    timeoutMs: 2_500,
    intervalMs: 1_000,
  }).catch((caught) => caught)
  expect(error).toBeInstanceOf(DeploymentWaitTimeoutError)
  expect(server.slept).toEqual([1_000, 1_000, 500])
  expect(server.polls()).toBe(4)
})
