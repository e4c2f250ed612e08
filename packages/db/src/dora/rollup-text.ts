// Reading `deployment_counts` rows as deployment-counts.ts receives them: the rows of one range
// joined into one text by Postgres, 'application block slot:count,slot:count…' each (migration
// 0005), separated by spaces. A 400-day window of a busy workspace holds 26,000 rows; one text and
// one pass over its characters cost a fraction of what as many result rows would.

import type { BucketRange } from './window-plan.ts'

const SPACE = 32
const COLON = 58
const MINUS = 45
const ZERO = 48
const NINE = 57
const COMMA = 44

/** Where the counts of a range go: per application, indexed from the window's first bucket. */
export interface RollupTarget {
  /** The array for an application's counts; made on first use. */
  countsFor(applicationId: string): number[]
  /** The array index of a bucket number of the range's width (one inside the window). */
  indexOf(number: number): number
}

/**
 * Adds every count of `rows` (see above; `null` when no row matched) whose bucket number lies in
 * `range` to its application's counts. An application whose rows hold no count inside the window
 * is never asked for.
 */
export function addRollupRows(rows: string | null, range: BucketRange, target: RollupTarget) {
  if (rows === null) return
  const end = rows.length
  let at = 0
  while (at < end) {
    const idStart = at
    while (rows.charCodeAt(at) !== SPACE) at++
    const applicationId = rows.slice(idStart, at)
    const negative = rows.charCodeAt(++at) === MINUS
    if (negative) at++
    let block = 0
    for (let code = rows.charCodeAt(at); code !== SPACE; code = rows.charCodeAt(++at)) {
      block = block * 10 + code - ZERO
    }
    const first = (negative ? -block : block) * 32
    let counts: number[] | undefined
    // \`at\` is on the space before the first pair, then on the comma before each next one; after
    // the last it is on the space before the next row, or past the end (where charCodeAt is NaN).
    let code: number
    do {
      let slot = 0
      for (code = rows.charCodeAt(++at); code !== COLON; code = rows.charCodeAt(++at)) {
        slot = slot * 10 + code - ZERO
      }
      let count = 0
      for (
        code = rows.charCodeAt(++at);
        code >= ZERO && code <= NINE;
        code = rows.charCodeAt(++at)
      ) {
        count = count * 10 + code - ZERO
      }
      const number = first + slot
      if (number >= range.from && number < range.to) {
        counts ??= target.countsFor(applicationId)
        const index = target.indexOf(number)
        counts[index] = (counts[index] ?? 0) + count
      }
    } while (code === COMMA)
    at++
  }
}
