import { expect, test } from 'bun:test'
import { csvField } from './csv.ts'

test.each([
  ['checkout', 'checkout'],
  ['a,b', '"a,b"'],
  ['say "hi"', '"say ""hi"""'],
  ['two\nlines', '"two\nlines"'],
  ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
  ['-1', "'-1"],
  ['@admin', "'@admin"],
  ['متجر', 'متجر'],
])('%p is written %p', (value, written) => {
  expect(csvField(value)).toBe(written)
})

test('null is an empty field', () => {
  expect(csvField(null)).toBe('')
})
