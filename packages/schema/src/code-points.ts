// Loops over UTF-16 units instead of `[...s]` so nothing is allocated on the hot path.

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff

/** Length in Unicode code points (JSON Schema maxLength semantics); a valid surrogate pair is one. */
export function codePointLength(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    if (isHigh(s.charCodeAt(i)) && i + 1 < s.length && isLow(s.charCodeAt(i + 1))) i++
    n++
  }
  return n
}

/** True when `s` holds a surrogate that is not part of a valid pair (Postgres rejects these). */
export function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (isHigh(c)) {
      if (i + 1 < s.length && isLow(s.charCodeAt(i + 1))) i++
      else return true
    } else if (isLow(c)) {
      return true
    }
  }
  return false
}

/** True when `s` holds a C0 control character (U+0000–U+001F) or DEL (U+007F). */
export function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c <= 0x1f || c === 0x7f) return true
  }
  return false
}
