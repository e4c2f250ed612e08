import { expect, test } from 'bun:test'
import { csvField, csvLines } from './csv.ts'

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

test('a number is written as a number, a negative one too; text that looks like one is guarded', () => {
  expect(csvLines(['lead', 'note'] as const, [{ lead: -7200, note: '-7200' }])).toBe(
    "-7200,'-7200\r\n",
  )
})
