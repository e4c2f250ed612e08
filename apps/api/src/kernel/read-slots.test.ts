import { expect, test } from 'bun:test'
import { HttpProblem } from './problems.ts'
import { ReadSlots } from './read-slots.ts'

function gate() {
  let open = () => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { open, opened }
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise
    return 200
  } catch (error) {
    if (error instanceof HttpProblem) return error.status
    throw error
  }
}

test('a key past its share gets 429 at once; other keys are not affected', async () => {
  const slots = new ReadSlots({ perKey: 2, total: 10, maxWaitMs: 1_000 })
  const g = gate()
  const held = [slots.run('a', () => g.opened), slots.run('a', () => g.opened)]
  expect(await statusOf(slots.run('a', async () => {}))).toBe(429)
  expect(await statusOf(slots.run('b', async () => {}))).toBe(200)
  g.open()
  await Promise.all(held)
  expect(await statusOf(slots.run('a', async () => {}))).toBe(200)
})

test('when every slot is taken a read waits its turn, then gets 503 if none frees', async () => {
  const slots = new ReadSlots({ perKey: 5, total: 1, maxWaitMs: 30 })
  const g = gate()
  const held = slots.run('a', () => g.opened)
  expect(await statusOf(slots.run('b', async () => {}))).toBe(503)
  const order: string[] = []
  const queued = slots.run('c', async () => void order.push('c'))
  g.open()
  await held
  await queued
  expect(order).toEqual(['c'])
})

test('a failing read frees its slots', async () => {
  const slots = new ReadSlots({ perKey: 1, total: 1, maxWaitMs: 10 })
  await expect(slots.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
  expect(await statusOf(slots.run('a', async () => {}))).toBe(200)
})
