import { codePointLength, hasControlChar, hasLoneSurrogate } from './code-points.ts'

/** Why a value was refused: a message that says what to send instead. */
export interface Invalid {
  error: string
}

/** A normalised value, or why it was refused; successes allocate nothing. */
export type Outcome<T = string> = T | Invalid

export const invalid = (error: string): Invalid => ({ error })

/** True when `outcome` is a refusal. */
export const isInvalid = (outcome: unknown): outcome is Invalid =>
  typeof outcome === 'object' && outcome !== null && 'error' in outcome

const CONTROL_CHARS = invalid('must not contain control characters')
const LONE_SURROGATE = invalid('must not contain unpaired surrogates (invalid Unicode)')

/**
 * The rule every text value follows, in a body, a query string or a path: no control characters
 * (so `\u0000` never reaches Postgres), no unpaired surrogates (Postgres cannot store them),
 * surrounding whitespace trimmed, at most `maxLength` Unicode code points. An empty result is
 * returned as `''` for the caller to judge.
 */
export function checkText(raw: string, maxLength: number | undefined): Outcome {
  if (hasControlChar(raw)) return CONTROL_CHARS
  if (hasLoneSurrogate(raw)) return LONE_SURROGATE
  const trimmed = raw.trim()
  // Code points never outnumber UTF-16 units, so short strings skip the count.
  if (maxLength !== undefined && trimmed.length > maxLength) {
    const length = codePointLength(trimmed)
    if (length > maxLength)
      return invalid(`must be at most ${maxLength} characters (got ${length})`)
  }
  return trimmed
}
