import fc from 'fast-check'

// Inputs that once got past the edges (issue 30), for every fuzz suite, so the class stays
// closed: names with an invisible or bidi code point, times far in the future, and the redirect
// targets of a sign-in (CR/LF, U+2028, code points above U+00FF, other sites, other schemes).

/** Code points a name must refuse: bidi controls, zero-width and other default-ignorables. */
const REFUSED_IN_NAMES = [
  '\u202E',
  '\u202A',
  '\u2066',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
  '\u200B',
  '\u200D',
  '\u00AD',
  '\u2060',
  '\uFEFF',
  '\uFE0F',
  '\u3164',
  '\u{E0001}',
  '\u0085',
  '\u2028',
]

/** A plausible name with a refused code point somewhere in it. */
export const lookalikeName = fc
  .tuple(
    fc.constantFrom('checkout', 'production', 'api', 'web'),
    fc.constantFrom(...REFUSED_IN_NAMES),
    fc.nat(8),
  )
  .map(([name, hidden, at]) => `${name.slice(0, at)}${hidden}${name.slice(at)}`)

/** Times a client may not report: beyond the 5 minutes of clock skew, up to year 9999. */
export const futureTime = fc.oneof(
  fc.constantFrom('9999-12-31T23:59:59Z', '9999-12-31T23:59:59.999999+14:00'),
  fc
    .integer({ min: 6, max: 60 * 24 * 365 })
    .map((minutes) => new Date(Date.now() + minutes * 60_000).toISOString()),
)

/** Where a sign-in may be asked to go next: under /ui but unbuildable, or somewhere else. */
export const redirectTarget = fc.oneof(
  fc.constantFrom(
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/ui/..//evil.example',
    'javascript:alert(1)',
    'https://evil.example/ui',
    '/ui\r\nSet-Cookie: stolen=1',
    '/ui/\u2028',
    '/ui/\u0100',
    '/ui/\u{10FFFF}',
    '/ui/%0d%0a',
    '/ui/deployments?app=caf\u00e9',
    '/ui',
  ),
  fc
    .tuple(
      fc.constantFrom('/ui/', '/ui?x=', '//', '/\\'),
      fc.string({ unit: 'binary', maxLength: 8 }),
    )
    .map(([prefix, rest]) => prefix + rest),
)

/**
 * Names that change under NFC or case folding: U+FB2C grows to three code points (85 of them
 * fill 255 exactly, 86 go past), and letters that case folding maps onto others (İ, ß, ı,
 * fullwidth), besides a combining mark on nothing.
 */
export const growingName = fc.oneof(
  fc.integer({ min: 83, max: 88 }).map((n) => '\uFB2C'.repeat(n)),
  fc.constantFrom('PRODUCTİON', 'straße', 'kırmızı', 'ｃheckout', '\u0301', 'a \u0301', 'ﬁle'),
)

/**
 * A JSON object's text with one of its fields written twice, the second time with `value`:
 * `{"app":"a", …, "app":"b"}`. JSON.parse would keep the last; the API must refuse it.
 */
export function withRepeatedKey(body: Record<string, unknown>, field: string, value: unknown) {
  const text = JSON.stringify(body)
  return `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${JSON.stringify(field)}:${JSON.stringify(value)}}`
}
