import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { checkKeyName, checkName, describeCodePoint, nameKey, refusedCodePoint } from './names.ts'
import { isInvalid } from './text.ts'

const anyText = fc.string({
  unit: fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.constantFrom('e\u0301', 'é', 'E', '\u200B', '\u202E', '\uFE0F', '\u{E0061}', 'A\u030A'),
  ),
  maxLength: 8,
})
const withoutIgnorables = (text: string) =>
  text.replace(/\p{Default_Ignorable_Code_Point}/gu, '').normalize('NFC')

describe('checkName', () => {
  test('property: a name is refused, or stored in NFC without a refused code point, and stays so', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const checked = checkName(text)
        if (isInvalid(checked)) {
          const refused = refusedCodePoint(text)
          expect(checked.error).toContain(
            refused === undefined ? 'must not contain U+' : describeCodePoint(refused),
          )
          return
        }
        expect(checked).toBe(text.normalize('NFC'))
        expect(refusedCodePoint(checked)).toBeUndefined()
        expect(checkName(checked)).toBe(checked)
      }),
      { numRuns: 2000 },
    )
  })

  test('property: two accepted names that look the same are one name', () => {
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        const [first, second] = [checkName(a), checkName(b)]
        if (isInvalid(first) || isInvalid(second)) return
        if (withoutIgnorables(a).toLowerCase() === withoutIgnorables(b).toLowerCase()) {
          expect(nameKey(first)).toBe(nameKey(second))
        }
      }),
      { numRuns: 2000 },
    )
  })

  test('names the code point, and whether it is a direction control, invisible or a control', () => {
    expect(describeCodePoint(0x202e)).toBe('U+202E RIGHT-TO-LEFT OVERRIDE')
    expect(describeCodePoint(0xe0041)).toBe('U+E0041')
    expect(checkName('a\u2067b')).toEqual({
      error:
        'must not contain U+2067 RIGHT-TO-LEFT ISOLATE: it changes the direction of the text, so two names could look the same; remove it',
    })
    expect(checkName('a\u3164b')).toMatchObject({ error: expect.stringContaining('is invisible') })
    expect(checkName('a\u009bb')).toMatchObject({
      error: expect.stringContaining('U+009B: it is a control character'),
    })
  })
})

// Letters that case or compatibility folding maps onto others, and marks on nothing, mixed with
// any code point at all.
const lookAlikeText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('İ', 'ı', 'I', 'i', 'ß', 'SS', 'ẞ', 'ﬁ', 'ｐ', 'P', 'ς', 'σ', 'Σ', '²', 'ǅ'),
    fc.constantFrom('\u0301', '\u0307', ' ', '-', 'e', 'é', 'K', '\u212A', 'Ω', '\u2126', 'ſ'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 8,
})

// What a person may type for the same name: another case, or another form of the same letters.
const variantsOf = (text: string) => [
  text.toUpperCase(),
  text.toLowerCase(),
  text.normalize('NFD'),
  text.normalize('NFKC'),
  text.normalize('NFKD'),
]

describe('look-alikes', () => {
  test('property: two accepted names that read the same ignoring case or form are one name', () => {
    fc.assert(
      fc.property(lookAlikeText, (text) => {
        const name = checkName(text)
        if (isInvalid(name)) return
        for (const variant of variantsOf(text)) {
          const other = checkName(variant)
          if (!isInvalid(other))
            expect({ variant, key: nameKey(other) }).toEqual({ variant, key: nameKey(name) })
        }
      }),
      { numRuns: 5000 },
    )
  })

  test('property: a look-alike is refused with the name to write instead, which is accepted', () => {
    fc.assert(
      fc.property(lookAlikeText, (text) => {
        const name = checkName(text)
        if (!isInvalid(name)) {
          expect(name).not.toMatch(/(?:^|[^\p{L}\p{N}\p{M}])\p{M}/u)
          return
        }
        const suggested = /write it "(.*)", in any case$/su.exec(name.error)?.[1]
        if (suggested === undefined) return
        expect(checkName(suggested)).toBe(suggested)
      }),
      { numRuns: 5000 },
    )
  })

  test('PRODUCTİON is refused naming the dotted İ, not kept apart from production', () => {
    expect(checkName('PRODUCTİON')).toEqual({
      error:
        'must not contain U+0130 (İ): names are matched ignoring case, and this one would be apart from "production", which reads the same; write it "production", in any case',
    })
    expect(checkName('straße')).toMatchObject({ error: expect.stringContaining('"strasse"') })
    expect(checkName('\u0301')).toEqual({
      error: 'must not contain U+0301 on its own: a combining mark must follow the letter it marks',
    })
    for (const accepted of ['Production', 'STRASSE', 'Москва', 'ΟΔΟΣ', 'café', '東京', 'a-1'])
      expect(checkName(accepted)).toBe(accepted)
  })
})

describe('checkKeyName', () => {
  test('printable text of 1 to 100 characters, trimmed, in NFC', () => {
    expect(checkKeyName('  github actions ')).toBe('github actions')
    expect(checkKeyName('cafe\u0301')).toBe('caf\u00e9')
    expect(checkKeyName('😀'.repeat(100))).toBe('😀'.repeat(100))
    expect(checkKeyName('😀'.repeat(101))).toEqual({
      error: 'must be at most 100 characters (got 101)',
    })
    for (const refused of ['a\r\nb', 'a\tb', '\u001b[2J', 'a\u0085b', 'a\u2028b', 'a\u202Eb']) {
      expect(isInvalid(checkKeyName(refused))).toBe(true)
    }
    expect(checkKeyName(' ')).toMatchObject({ error: expect.stringContaining('must not be empty') })
  })
})
