import { expect, test } from 'bun:test'
import { pushedStream } from './pushed-stream.ts'

test('the producer runs ahead by at most one chunk of the reader', async () => {
  let pushed = 0
  const { stream, ready, done } = pushedStream(async (push) => {
    for (let index = 0; index < 5; index++) {
      await push(`${index},`)
      pushed++
    }
  })
  await ready
  expect(pushed).toBe(1)
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let text = ''
  for (;;) {
    const { value, done: ended } = await reader.read()
    if (ended) break
    text += decoder.decode(value)
    expect(pushed).toBeLessThanOrEqual(text.split(',').length)
  }
  await done
  expect(text).toBe('0,1,2,3,4,')
})

test('a failure before the first chunk rejects ready; after it, it cuts the body', async () => {
  const early = pushedStream(async () => {
    throw new Error('no database')
  })
  await expect(early.ready).rejects.toThrow('no database')
  const late = pushedStream(async (push) => {
    await push('a')
    await push('b')
    throw new Error('timeout')
  })
  await late.ready
  await expect(new Response(late.stream).text()).rejects.toThrow('timeout')
})

test('a reader that goes away ends the producer at its next push', async () => {
  let stoppedWith: unknown
  const { stream, ready, done } = pushedStream(async (push) => {
    try {
      for (;;) await push('row\n')
    } catch (error) {
      stoppedWith = error
      throw error
    }
  })
  await ready
  const reader = stream.getReader()
  await reader.read()
  await reader.cancel()
  await done
  expect(String(stoppedWith)).toContain('went away')
})
