import { describe, expect, test } from 'bun:test'
import { GroupCommit } from './group-commit.ts'

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('GroupCommit', () => {
  test('an item submitted while idle is committed at once, alone', async () => {
    const batches: number[][] = []
    const group = new GroupCommit<number, number>(
      async (items) => {
        batches.push(items)
        return items.map((item) => item * 2)
      },
      { maxBatchSize: 10, maxWaitMs: 1_000, maxInFlight: 1 },
    )
    expect(await group.submit(21)).toBe(42)
    expect(batches).toEqual([[21]])
  })

  test('items arriving during a commit share the next one', async () => {
    const commits: { items: number[]; done: ReturnType<typeof deferred<void>> }[] = []
    const group = new GroupCommit<number, number>(
      async (items) => {
        const done = deferred<void>()
        commits.push({ items, done })
        await done.promise
        return items
      },
      { maxBatchSize: 10, maxWaitMs: 1_000, maxInFlight: 1 },
    )
    const first = group.submit(1)
    const rest = [2, 3, 4].map((item) => group.submit(item))
    expect(commits.map((commit) => commit.items)).toEqual([[1]])
    commits[0]?.done.resolve()
    await first
    await Bun.sleep(0)
    expect(commits.map((commit) => commit.items)).toEqual([[1], [2, 3, 4]])
    commits[1]?.done.resolve()
    expect(await Promise.all(rest)).toEqual([2, 3, 4])
  })

  test('no caller is answered before the commit that carries it returns', async () => {
    const commit = deferred<void>()
    const group = new GroupCommit<number, string>(
      async (items) => {
        await commit.promise
        return items.map(() => 'committed')
      },
      { maxBatchSize: 10, maxWaitMs: 0, maxInFlight: 1 },
    )
    let answered = false
    const pending = group.submit(1).then((value) => {
      answered = true
      return value
    })
    await Bun.sleep(5)
    expect(answered).toBe(false)
    commit.resolve()
    expect(await pending).toBe('committed')
  })

  test('a failed commit rejects every caller in it and nobody else', async () => {
    const commits: ReturnType<typeof deferred<void>>[] = []
    const group = new GroupCommit<string, string>(
      async (items) => {
        const done = deferred<void>()
        commits.push(done)
        await done.promise
        return items
      },
      { maxBatchSize: 10, maxWaitMs: 1_000, maxInFlight: 1 },
    )
    const alone = group.submit('alone')
    const batch = ['a', 'b', 'c'].map((item) => group.submit(item))
    commits[0]?.resolve()
    expect(await alone).toBe('alone')
    await Bun.sleep(0)
    commits[1]?.reject(new Error('connection lost'))
    const outcomes = await Promise.allSettled(batch)
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected'])
  })

  test('a full batch goes without waiting, and batches never exceed maxBatchSize', async () => {
    const sizes: number[] = []
    const group = new GroupCommit<number, number>(
      async (items) => {
        sizes.push(items.length)
        await Bun.sleep(1)
        return items
      },
      { maxBatchSize: 4, maxWaitMs: 10_000, maxInFlight: 2 },
    )
    await Promise.all(Array.from({ length: 17 }, (_, index) => group.submit(index)))
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4)
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(17)
  })

  test('batch size 1 commits every item on its own', async () => {
    const sizes: number[] = []
    const group = new GroupCommit<number, number>(
      async (items) => {
        sizes.push(items.length)
        return items
      },
      { maxBatchSize: 1, maxWaitMs: 2, maxInFlight: 4 },
    )
    await Promise.all(Array.from({ length: 9 }, (_, index) => group.submit(index)))
    expect(sizes).toEqual(Array(9).fill(1))
  })

  test('whenIdle resolves once every submitted item has its answer', async () => {
    const group = new GroupCommit<number, number>(
      async (items) => {
        await Bun.sleep(2)
        return items
      },
      { maxBatchSize: 2, maxWaitMs: 1, maxInFlight: 1 },
    )
    const answers: number[] = []
    for (let index = 0; index < 5; index++) group.submit(index).then((value) => answers.push(value))
    await group.whenIdle()
    await Bun.sleep(0)
    expect(answers.sort()).toEqual([0, 1, 2, 3, 4])
  })

  test('a result that is a promise frees the commit slot while its caller waits for it', async () => {
    const slow = deferred<string>()
    let commits = 0
    const group = new GroupCommit<string, string>(
      async (items) => {
        commits++
        return items.map((item) => (item === 'checked' ? slow.promise : item))
      },
      { maxBatchSize: 1, maxWaitMs: 0, maxInFlight: 1 },
    )
    const checked = group.submit('checked')
    expect(await group.submit('next')).toBe('next')
    expect(commits).toBe(2)
    slow.resolve('verified')
    expect(await checked).toBe('verified')
  })
})
