import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { codePointLength, hasControlChar, hasLoneSurrogate } from './code-points.ts'

// Any UTF-16 code unit, lone surrogates included.
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c))
const units = fc.string({
  unit: fc.oneof(anyUnit, fc.constantFrom('😀', '𝄞', '\uD800', '\uDC00', 'a')),
  maxLength: 40,
})

describe('codePointLength', () => {
  test('counts BMP characters as one each', () => {
    expect(codePointLength('')).toBe(0)
    expect(codePointLength('abc')).toBe(3)
    expect(codePointLength('é\u200F\u200D')).toBe(3)
  })

  test('counts a surrogate pair (astral, 4 UTF-8 bytes) as one', () => {
    expect('😀'.length).toBe(2)
    expect(codePointLength('😀')).toBe(1)
    expect(codePointLength('😀'.repeat(255))).toBe(255)
    expect(codePointLength(`a${'𝄞'.repeat(3)}b`)).toBe(5)
  })

  test('counts each lone surrogate as one', () => {
    expect(codePointLength('\uD800')).toBe(1)
    expect(codePointLength('\uDC00\uD800')).toBe(2)
    expect(codePointLength('a\uD800')).toBe(2)
  })

  test('matches string iteration for arbitrary UTF-16', () => {
    fc.assert(fc.property(units, (s) => codePointLength(s) === Array.from(s).length))
  })
})

describe('hasLoneSurrogate', () => {
  test('accepts valid text and pairs', () => {
    expect(hasLoneSurrogate('')).toBe(false)
    expect(hasLoneSurrogate('plain \u200F\u200D')).toBe(false)
    expect(hasLoneSurrogate('😀')).toBe(false)
    expect(hasLoneSurrogate('\uD83D\uDE00')).toBe(false)
  })

  test('detects unpaired high and low surrogates anywhere', () => {
    expect(hasLoneSurrogate('\uD800')).toBe(true)
    expect(hasLoneSurrogate('\uDC00')).toBe(true)
    expect(hasLoneSurrogate('a\uD800b')).toBe(true)
    expect(hasLoneSurrogate('😀\uD800')).toBe(true)
    expect(hasLoneSurrogate('\uDE00\uD83D')).toBe(true)
    expect(hasLoneSurrogate('\uD800\uD800\uDC00')).toBe(true)
  })

  test('agrees with the Unicode-mode \\p{Cs} regex', () => {
    fc.assert(fc.property(units, (s) => hasLoneSurrogate(s) === /\p{Cs}/u.test(s)))
  })
})

describe('hasControlChar', () => {
  test('detects U+0000-U+001F and U+007F', () => {
    for (const c of ['\u0000', '\t', '\n', '\r', '\u001f', '\u007f']) {
      expect(hasControlChar(`a${c}b`)).toBe(true)
    }
  })

  test('allows other characters', () => {
    expect(hasControlChar(' ~é\u0080\u200F\u200D😀')).toBe(false)
  })
})
