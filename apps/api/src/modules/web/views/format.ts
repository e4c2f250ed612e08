// How the pages write times, durations and ratios. Times are UTC, written as the API writes them
// minus the milliseconds, so what a page shows can be searched for in the API's answers.

/** `1 commit`, `2 commits`, `0 commits`: a count with its noun as English writes it. */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

/** `2026-05-04 10:00 UTC` from an RFC 3339 instant. */
export function utc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
}

/** A duration in seconds as people say it: `45 s`, `12 min`, `3 h 20 min`, `4 d 2 h`. */
export function duration(seconds: number | null): string {
  if (seconds === null) return 'no data'
  const whole = Math.round(Math.max(0, seconds))
  if (whole < 60) return `${whole} s`
  const minutes = Math.round(whole / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`
  const days = Math.floor(hours / 24)
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`
}

/** How long before `now` an instant was: `5 min ago`, `3 d ago`. */
export function age(iso: string, now: Date): string {
  const seconds = (now.getTime() - Date.parse(iso)) / 1000
  return seconds < 0 ? 'in the future' : `${duration(seconds)} ago`
}

/** A ratio as a percentage with one decimal, or `no data`. */
export function percent(ratio: number | null): string {
  return ratio === null ? 'no data' : `${(ratio * 100).toFixed(1)} %`
}

// Axis tops for durations, so the gridlines read as whole times (the middle one is half).
const DURATION_TOPS = [
  60, 120, 300, 600, 1_200, 1_800, 3_600, 7_200, 14_400, 21_600, 43_200, 86_400, 172_800, 345_600,
  604_800, 1_209_600, 2_592_000, 5_184_000, 7_776_000, 15_552_000, 31_536_000,
]

/** The smallest whole duration (a minute … a year) at or above `seconds`; undefined for no data. */
export function durationAxisTop(seconds: number): number | undefined {
  if (!Number.isFinite(seconds) || seconds <= 0) return undefined
  return DURATION_TOPS.find((top) => top >= seconds) ?? seconds
}
