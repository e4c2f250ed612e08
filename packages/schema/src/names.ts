import { codePointLength } from './code-points.ts'
import { checkText, invalid, isInvalid, type Outcome } from './text.ts'

/**
 * The matching key of an environment, application or repository name: `Production` and
 * `production` are one environment. Folded here, in one place, rather than by the database's
 * collation, so every process and every database agrees on what "the same name" means.
 */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase()
}

// What a name may not hold, because it makes two names look alike or changes how the text
// around it reads: every default-ignorable code point (zero-width characters, the bidi controls
// U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069, variation selectors, tags…), the C1 controls,
// and the line and paragraph separators. Bun, Node and Deno agree on the property (Unicode 16).
const REFUSED = /[\p{Default_Ignorable_Code_Point}\u0080-\u009f\u2028\u2029]/u

// The refused code points people meet, by name; the others are written by number alone.
const BIDI_CONTROLS: Readonly<Record<string, string>> = {
  '061C': 'ARABIC LETTER MARK',
  '200E': 'LEFT-TO-RIGHT MARK',
  '200F': 'RIGHT-TO-LEFT MARK',
  '202A': 'LEFT-TO-RIGHT EMBEDDING',
  '202B': 'RIGHT-TO-LEFT EMBEDDING',
  '202C': 'POP DIRECTIONAL FORMATTING',
  '202D': 'LEFT-TO-RIGHT OVERRIDE',
  '202E': 'RIGHT-TO-LEFT OVERRIDE',
  '2066': 'LEFT-TO-RIGHT ISOLATE',
  '2067': 'RIGHT-TO-LEFT ISOLATE',
  '2068': 'FIRST STRONG ISOLATE',
  '2069': 'POP DIRECTIONAL ISOLATE',
}
const INVISIBLES: Readonly<Record<string, string>> = {
  '00AD': 'SOFT HYPHEN',
  '034F': 'COMBINING GRAPHEME JOINER',
  '200B': 'ZERO WIDTH SPACE',
  '200C': 'ZERO WIDTH NON-JOINER',
  '200D': 'ZERO WIDTH JOINER',
  '2028': 'LINE SEPARATOR',
  '2029': 'PARAGRAPH SEPARATOR',
  '2060': 'WORD JOINER',
  FEFF: 'ZERO WIDTH NO-BREAK SPACE',
}

const hexOf = (codePoint: number) => codePoint.toString(16).toUpperCase().padStart(4, '0')

/** `U+202E RIGHT-TO-LEFT OVERRIDE`: a code point as Unicode charts write it, named if known. */
export function describeCodePoint(codePoint: number): string {
  const hex = hexOf(codePoint)
  const name = BIDI_CONTROLS[hex] ?? INVISIBLES[hex]
  return name === undefined ? `U+${hex}` : `U+${hex} ${name}`
}

function whyRefused(codePoint: number): string {
  if (hexOf(codePoint) in BIDI_CONTROLS) return 'it changes the direction of the text'
  if (codePoint <= 0x9f) return 'it is a control character'
  if (codePoint === 0x2028 || codePoint === 0x2029) return 'it breaks the line'
  return 'it is invisible'
}

const UNPRINTABLE = new RegExp(`[\\u0000-\\u001f\\u007f]|${REFUSED.source}`, 'gu')

/**
 * `name` safe to print on a terminal or in a log line: each control, invisible or bidi code point
 * written as `<U+202E>`, so a name stored before the rule neither hides nor reorders anything.
 */
export function printableName(name: string): string {
  return name.replace(UNPRINTABLE, (found) => `<U+${hexOf(found.codePointAt(0) as number)}>`)
}

/** The first code point of `name` that the names rule refuses, if any. */
export function refusedCodePoint(name: string): number | undefined {
  const found = REFUSED.exec(name)
  return found === null ? undefined : found[0].codePointAt(0)
}

// Names are matched ignoring case (nameKey). This is the text as full case folding and
// compatibility folding see it: upper-cased then lower-cased (ß meets SS, ı meets I, ﬁ meets FI),
// in NFKC (fullwidth and other compatibility forms meet their plain letters), with the dot that
// İ leaves on an i dropped. A name whose key differs from it has a look-alike it would not match.
function caseFolded(text: string): string {
  // Until it settles: ẞ lower-cases to ß, which upper-cases to SS.
  for (let folded = text; ; ) {
    const next = folded
      .normalize('NFKC')
      .toUpperCase()
      .toLowerCase()
      .normalize('NFKC')
      .replace(/i\u0307/g, 'i')
    if (next === folded) return next
    folded = next
  }
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

// The first code point at which `name`'s key parts from its case-folded form.
function firstLookAlike(name: string): string {
  let prefix = ''
  for (const character of name) {
    prefix += character
    if (caseFolded(prefix) !== nameKey(prefix)) return character
  }
  return [...name].at(-1) ?? ''
}

// A combining mark (an accent) stands on the letter or digit before it; one on nothing, on a
// space or on punctuation draws alone or over its neighbour.
const STRAY_MARK = /(?:^|[^\p{L}\p{N}\p{M}])(\p{M})/u

/** Why `name` (in NFC) could pass for another name, if it could. */
function lookAlikeProblem(name: string): string | undefined {
  if (PRINTABLE_ASCII.test(name)) return undefined
  const stray = STRAY_MARK.exec(name)?.[1]
  if (stray !== undefined) {
    const described = describeCodePoint(stray.codePointAt(0) as number)
    return `must not contain ${described} on its own: a combining mark must follow the letter it marks`
  }
  const folded = caseFolded(name)
  if (folded === nameKey(name)) return undefined
  const culprit = firstLookAlike(name)
  const described = `${describeCodePoint(culprit.codePointAt(0) as number)} (${culprit})`
  const why = `must not contain ${described}: names are matched ignoring case, and this one would be apart from "${folded}", which reads the same`
  // Folding can leave what a name may not hold (a compatibility form unfolds to a space and marks).
  const writable =
    folded !== '' &&
    folded.trim() === folded &&
    refusedCodePoint(folded) === undefined &&
    !STRAY_MARK.test(folded)
  return writable ? `${why}; write it "${folded}", in any case` : `${why}; remove it`
}

/**
 * The rule every name follows (applications, environments, repositories, API keys), on every
 * write and every filter: no code point that is invisible or changes the direction of the text
 * (so `checkout` and `checkout` + U+200B cannot be two applications that look the same), stored
 * in Unicode NFC (so `é` typed two ways is one name), at most `maxLength` code points in that
 * form. Takes text `checkText` has passed.
 */
function checkPrintableName(text: string, maxLength?: number): Outcome {
  const refused = refusedCodePoint(text)
  if (refused !== undefined) {
    return invalid(
      `must not contain ${describeCodePoint(refused)}: ${whyRefused(refused)}, so two names could look the same; remove it`,
    )
  }
  // The limit holds for the form stored: some letters grow under NFC (U+FB2C is three code
  // points), and a name stored longer than its limit could not be named in a filter.
  const normalized = text.normalize('NFC')
  if (maxLength !== undefined && normalized.length > maxLength) {
    const length = codePointLength(normalized)
    if (length > maxLength) {
      return invalid(
        `must be at most ${maxLength} characters in Unicode NFC, the form names are stored in (got ${length})`,
      )
    }
  }
  return normalized
}

/**
 * The rule for the names matched ignoring case (applications, environments, repositories):
 * `checkPrintableName`'s, and no look-alike that the match would keep apart (`PRODUCTİON`,
 * `straße`, fullwidth letters, a combining mark on nothing).
 */
export function checkName(text: string, maxLength?: number): Outcome {
  const printable = checkPrintableName(text, maxLength)
  if (isInvalid(printable)) return printable
  const lookAlike = lookAlikeProblem(printable)
  return lookAlike === undefined ? printable : invalid(lookAlike)
}

/** The longest name of an API key: it is printed in lists and logs, on one line. */
export const KEY_NAME_MAX_LENGTH = 100

const EMPTY_KEY_NAME = invalid('must not be empty: name the key after who or what uses it')

/**
 * The name of an API key: printable text (no control character, invisible or bidi code point)
 * of 1 to 100 characters, trimmed, in NFC; or why it is refused.
 */
export function checkKeyName(raw: string): Outcome {
  const text = checkText(raw, KEY_NAME_MAX_LENGTH)
  if (isInvalid(text)) return text
  return text === '' ? EMPTY_KEY_NAME : checkPrintableName(text, KEY_NAME_MAX_LENGTH)
}
