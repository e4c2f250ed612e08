// Every part is a fixed-width digit run or a literal, so matching is linear (no backtracking).
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

// A calendar date alone, as people type one into a filter.
const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const SECONDS_PER_DAY = 86_400
const MICROS_PER_SECOND = 1_000_000n

/** A point in time as Shiplog stores it: Postgres `timestamptz`, microsecond precision. */
export interface Instant {
  /** Microseconds since 1970-01-01T00:00:00Z. */
  micros: bigint
  /** RFC 3339 in UTC, rendered exactly as Postgres' `iso_utc` renders the stored value. */
  iso: string
}

export type DateTimeParse =
  | { ok: true; instant: Instant }
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

// The inverse (Hinnant's civil_from_days).
function civilFromDays(days: number): [year: number, month: number, day: number] {
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const doe = z - era * 146_097
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  )
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day]
}

/** 0001-01-01T00:00:00Z: Postgres stores earlier instants, but clients cannot read them back. */
export const EARLIEST_MICROS = BigInt(daysFromCivil(1, 1, 1) * SECONDS_PER_DAY) * MICROS_PER_SECOND
/** 9999-12-31T23:59:59.999999Z: RFC 3339 has four-digit years. */
export const LATEST_MICROS =
  BigInt(daysFromCivil(10_000, 1, 1) * SECONDS_PER_DAY) * MICROS_PER_SECOND - 1n

// C's rint() in its default mode: halves go to the even neighbour.
function roundHalfEven(x: number): number {
  const rounded = Math.round(x)
  return rounded - x === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded
}

// Postgres reads the fraction with strtod and keeps rint(fraction * 1e6) microseconds
// (ParseFractionalSecond); parseFloat rounds like strtod, so this lands on the same microsecond.
function fractionMicros(digits: string): number {
  return digits === '' ? 0 : roundHalfEven(Number.parseFloat(`0.${digits}`) * 1e6)
}

const pad = (n: number | bigint, width: number) => String(n).padStart(width, '0')

/** The instant at `micros`, rendered as Postgres' `iso_utc` does: ms, or µs when finer. */
export function instantFromMicros(micros: bigint): Instant {
  let seconds = micros / MICROS_PER_SECOND
  let fraction = micros % MICROS_PER_SECOND
  if (fraction < 0n) {
    fraction += MICROS_PER_SECOND
    seconds -= 1n
  }
  const secondsOfDay = Number(((seconds % 86_400n) + 86_400n) % 86_400n)
  const days = Number((seconds - BigInt(secondsOfDay)) / 86_400n)
  const [year, month, day] = civilFromDays(days)
  const hh = Math.floor(secondsOfDay / 3600)
  const mm = Math.floor((secondsOfDay % 3600) / 60)
  const ss = secondsOfDay % 60
  const subsecond = fraction % 1000n === 0n ? pad(fraction / 1000n, 3) : pad(fraction, 6)
  const iso = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}.${subsecond}Z`
  return { micros, iso }
}

/**
 * The text `instantFromMicros` renders, from a timestamptz as Postgres prints it with
 * `TimeZone` UTC and `DateStyle` ISO: '2026-05-04 10:00:00.12+00' (the fraction's trailing
 * zeros dropped, no fraction at all on a whole second). Slices rather than arithmetic: where
 * thousands of instants are read at once (`/v1/state`), it spares both Postgres and the client.
 */
export function isoFromPostgres(text: string): string {
  const end = text.length - 3
  const fraction = end > 19 ? text.slice(20, end) : ''
  const digits = fraction.length <= 3 ? fraction.padEnd(3, '0') : fraction.padEnd(6, '0')
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${digits}Z`
}

/** The instant of a JavaScript Date (millisecond precision). */
export function instantFromDate(date: Date): Instant {
  return instantFromMicros(BigInt(date.getTime()) * 1000n)
}

/**
 * Parses an RFC 3339 date-time that has a zone into the instant Postgres would store for it
 * (rounded to the microsecond as Postgres rounds), from 0001-01-01T00:00:00Z to year 9999 in UTC.
 * `syntax` when it is not RFC 3339 with a zone; `range` for a date or time that does not exist
 * (February 30, hour 24, a leap second, an offset past ±14:59) or lies outside those years.
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

  const sign = m[8] === '-' ? -1 : 1
  const offsetSeconds = sign * (offsetHours * 60 + offsetMinutes) * 60
  const utcSeconds =
    daysFromCivil(year, month, day) * SECONDS_PER_DAY +
    (hour * 60 + minute) * 60 +
    second -
    offsetSeconds
  const micros = BigInt(utcSeconds) * MICROS_PER_SECOND + BigInt(fractionMicros(m[7] ?? ''))
  if (micros < EARLIEST_MICROS || micros > LATEST_MICROS) return RANGE
  return { ok: true, instant: instantFromMicros(micros) }
}

/**
 * Parses what a `since` or `until` takes: an RFC 3339 date-time with a zone, or a plain date
 * (`2026-05-01`), which stands for its midnight UTC. The one rule every window of the API and
 * the dashboard follows.
 */
export function parseDateOrDateTime(s: string): DateTimeParse {
  const m = PLAIN_DATE.exec(s)
  return m === null ? parseDateTime(s) : parseDateTime(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`)
}
