// Every part is a fixed-width digit run or a literal, so matching is linear (no backtracking).
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const MS_PER_DAY = 86_400_000

export type DateTimeParse =
  | { ok: true; epochMs: number }
  | { ok: false; reason: 'syntax' | 'range' }

const SYNTAX: DateTimeParse = { ok: false, reason: 'syntax' }
const RANGE: DateTimeParse = { ok: false, reason: 'range' }

const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0

// Days since 1970-01-01 in the proleptic Gregorian calendar (Hinnant's days_from_civil).
// Done by hand because Date.UTC maps years 0-99 to 1900-1999.
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097 + doe - 719_468
}

const EARLIEST_MS = daysFromCivil(1, 1, 1) * MS_PER_DAY

/**
 * Parses an RFC 3339 date-time that has a zone. `epochMs` is milliseconds since the Unix epoch;
 * digits beyond milliseconds only add 0.5 when non-zero, so comparisons against whole
 * milliseconds stay exact without floating-point fraction arithmetic.
 */
export function parseDateTime(s: string): DateTimeParse {
  const m = RFC3339.exec(s)
  if (m === null) return SYNTAX
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  const hour = Number(m[4])
  const minute = Number(m[5])
  const second = Number(m[6])
  const offsetHours = m[8] === undefined ? 0 : Number(m[9])
  const offsetMinutes = m[8] === undefined ? 0 : Number(m[10])
  if (year < 1 || month < 1 || month > 12 || day < 1) return RANGE
  const monthDays = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0)
  if (day > monthDays || hour > 23 || minute > 59 || second > 59) return RANGE
  if (offsetHours > 14 || offsetMinutes > 59) return RANGE

  const fraction = m[7] ?? ''
  let millis = 0
  for (let i = 0; i < 3; i++) {
    const digit = i < fraction.length ? fraction.charCodeAt(i) - 48 : 0
    millis = millis * 10 + digit
  }
  let subMillis = 0
  for (let i = 3; i < fraction.length; i++) {
    if (fraction.charCodeAt(i) !== 48) {
      subMillis = 0.5
      break
    }
  }

  const sign = m[8] === '-' ? -1 : 1
  const offsetMs = sign * (offsetHours * 60 + offsetMinutes) * 60_000
  const localMs =
    daysFromCivil(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000
  const epochMs = localMs + millis + subMillis - offsetMs
  // 0001-01-01T00:00:00+14:00 is still year 1 locally but 1 BC in UTC, which Postgres stores yet
  // no client can read back as a year-1 date: the earliest instant is the start of year 1 in UTC.
  return epochMs < EARLIEST_MS ? RANGE : { ok: true, epochMs }
}
