import { FormatRegistry } from '@sinclair/typebox'
import { type Instant, parseDateOrDateTime, parseDateTime } from './date-time.ts'
import { checkName } from './names.ts'
import {
  type CommitCursor,
  decodeCommitCursor,
  decodeCursor,
  type PageCursor,
} from './page-cursor.ts'
import { invalid, isInvalid, type Outcome } from './text.ts'
import { UUID } from './uuid.ts'

const BAD_DATE_SYNTAX = invalid(
  'must be an RFC 3339 date-time with a time zone, for example 2026-05-01T12:00:00Z',
)
const BAD_DATE_RANGE = invalid(
  'must be a real date and time from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z (in UTC): a day that exists in that month, hour 00-23, minute and second 00-59, offset hours 00-14',
)
const BAD_DAY_SYNTAX = invalid(
  'must be a date (2026-05-01, meaning its midnight UTC) or an RFC 3339 date-time with a time zone, for example 2026-05-01T12:00:00Z',
)
const BAD_UUID = invalid(
  'must be a UUID such as 0190f3c4-8a5e-7b2c-9d41-3f6a2b1c0d9e (from the Location of the 202)',
)
const BAD_CURSOR = invalid(
  'is not a cursor this API returned; pass nextCursor of the previous page unchanged',
)

/**
 * Every string format Shiplog accepts, in one place: each parses a trimmed string into the typed
 * value the rest of the code uses, or says what to send instead. Bodies, query strings and path
 * parameters all go through these, never through whatever a framework registered.
 */
export const FORMATS = {
  'date-time': (value: string): Outcome<Instant> => {
    const parsed = parseDateTime(value)
    if (parsed.ok) return parsed.instant
    return parsed.reason === 'syntax' ? BAD_DATE_SYNTAX : BAD_DATE_RANGE
  },
  /** What `since` and `until` take: a plain date (its midnight UTC) or a date-time. */
  'date-or-date-time': (value: string): Outcome<Instant> => {
    const parsed = parseDateOrDateTime(value)
    if (parsed.ok) return parsed.instant
    return parsed.reason === 'syntax' ? BAD_DAY_SYNTAX : BAD_DATE_RANGE
  },
  uuid: (value: string): Outcome<string> => (UUID.test(value) ? value.toLowerCase() : BAD_UUID),
  cursor: (value: string): Outcome<PageCursor> => decodeCursor(value) ?? BAD_CURSOR,
  'commit-cursor': (value: string): Outcome<CommitCursor> =>
    decodeCommitCursor(value) ?? BAD_CURSOR,
  // Applications, environments, repositories: no invisible or bidi code points, stored in NFC.
  name: checkName,
} as const

/** A format name of `FORMATS`. */
export type FormatName = keyof typeof FORMATS

/** A value of `format` from checked text: a name's `maxLength` holds for its stored (NFC) form. */
export function parseFormat<F extends FormatName>(
  format: F,
  text: string,
  maxLength: number | undefined,
): ReturnType<(typeof FORMATS)[F]> {
  const parsed = format === 'name' ? checkName(text, maxLength) : FORMATS[format](text)
  return parsed as ReturnType<(typeof FORMATS)[F]>
}

/** True when `name` is one of Shiplog's formats. */
export const isFormatName = (name: unknown): name is FormatName =>
  typeof name === 'string' && Object.hasOwn(FORMATS, name)

// For code that checks our schemas with TypeBox's Value.Check (the worker, other teams): set
// unconditionally, so our rules win over any looser ones a framework registered before us
// (Elysia registers a `date-time` that lets `"2000-01-01T00:00:00Z"` with quotes through).
for (const name of Object.keys(FORMATS) as FormatName[]) {
  const parse = FORMATS[name] as (value: string) => unknown
  FormatRegistry.Set(name, (value) => !isInvalid(parse(value)))
}
