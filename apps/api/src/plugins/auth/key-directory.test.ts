import { expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { hashPrefixOf, KeyDirectory } from './key-directory.ts'

const hash = (key: string) => createHash('sha256').update(key).digest()

test('a known key may exist; a guess does not, and guesses reload at most once per interval', async () => {
  let now = 0
  let loads = 0
  const active = [hashPrefixOf(hash('valid'))]
  const directory = new KeyDirectory(
    async () => {
      loads++
      return [...active]
    },
    1_000,
    () => now,
  )
  expect(await directory.mayExist(hash('valid'))).toBe(true)
  for (let i = 0; i < 100; i++) expect(await directory.mayExist(hash(`guess-${i}`))).toBe(false)
  expect(loads).toBe(1)

  // A key created since is found on the next reload, once the interval has passed.
  active.push(hashPrefixOf(hash('new')))
  expect(await directory.mayExist(hash('new'))).toBe(false)
  now += 1_000
  expect(await directory.mayExist(hash('new'))).toBe(true)
  expect(loads).toBe(2)
})

test('concurrent misses share one reload', async () => {
  let loads = 0
  const directory = new KeyDirectory(async () => {
    loads++
    return []
  })
  await Promise.all(Array.from({ length: 20 }, (_, i) => directory.mayExist(hash(`g${i}`))))
  expect(loads).toBe(1)
})
