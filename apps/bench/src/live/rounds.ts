/** One kind of drain the benchmark measures at a size. */
export interface DrainVariant {
  concurrency: number
  holdSnapshot: boolean
  /**
   * What the drain is compared in: the sizes (concurrency 1 and 2, each against empty) or the
   * snapshot (held against not held, at concurrency 1).
   */
  comparison: 'sizes' | 'snapshot'
}

/** `rounds` turns of the variants, each turn starting one variant later than the last. */
function rotated(variants: DrainVariant[], rounds: number): DrainVariant[] {
  return Array.from({ length: rounds }, (_, round) =>
    variants.map((_, position) => variants[(round + position) % variants.length] as DrainVariant),
  ).flat()
}

/**
 * The drains of one size in the order to run them: the rounds of concurrency 1 and 2, then (with
 * `withSnapshot`) rounds of a drain with a snapshot held and one without, compared with each
 * other. Each variant goes first in as many rounds as the others, so none always meets the host
 * at the same moment of a round.
 */
export function drainPlan(rounds: number, withSnapshot: boolean): DrainVariant[] {
  const sizes = rotated(
    [
      { concurrency: 1, holdSnapshot: false, comparison: 'sizes' },
      { concurrency: 2, holdSnapshot: false, comparison: 'sizes' },
    ],
    rounds,
  )
  if (!withSnapshot) return sizes
  const snapshot = rotated(
    [
      { concurrency: 1, holdSnapshot: true, comparison: 'snapshot' },
      { concurrency: 1, holdSnapshot: false, comparison: 'snapshot' },
    ],
    rounds,
  )
  return [...sizes, ...snapshot]
}
