import { expect, test } from 'bun:test'
import { embeddedSharedBuffers } from './embedded-memory.ts'

const GIB = 2 ** 30

test('the embedded Postgres takes a quarter of the memory for its buffers, from 128 MB to 1 GB', () => {
  expect(embeddedSharedBuffers(24 * GIB)).toBe('1024MB')
  expect(embeddedSharedBuffers(2 * GIB)).toBe('512MB')
  expect(embeddedSharedBuffers(GIB / 4)).toBe('128MB')
  expect(embeddedSharedBuffers(0)).toBe('128MB')
})
