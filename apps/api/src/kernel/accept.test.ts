import { expect, test } from 'bun:test'
import { preferredType } from './accept.ts'

const offered = ['application/json', 'text/csv'] as const

test.each([
  [null, 'application/json'],
  ['*/*', 'application/json'],
  ['text/csv', 'text/csv'],
  ['TEXT/CSV; charset=utf-8', 'text/csv'],
  ['text/*', 'text/csv'],
  ['text/html', 'application/json'],
  ['application/json, text/csv', 'application/json'],
  ['application/json;q=0.5, text/csv', 'text/csv'],
  ['text/csv;q=0, */*', 'application/json'],
  ['text/csv;q=0.9, */*;q=0.9', 'text/csv'],
  ['text/csv;q=abc', 'application/json'],
])('Accept %p answers %p', (accept, type) => {
  expect<string>(preferredType(accept, offered)).toBe(type)
})
