/** One kind of drain the benchmark measures at a size. */
export interface DrainVariant {
  concurrency: number
  holdSnapshot: boolean
}

/**
 * The drains of one size in the order to run them: `rounds` turns of every variant, each turn
 * starting one variant later than the last, so no variant always runs first on a freshly
 * vacuumed database or last on the fullest one.
 */
export function drainPlan(rounds: number, withSnapshot: boolean): DrainVariant[] {
  const variants: DrainVariant[] = [
    { concurrency: 1, holdSnapshot: false },
    { concurrency: 2, holdSnapshot: false },
    ...(withSnapshot ? [{ concurrency: 1, holdSnapshot: true }] : []),
  ]
  return Array.from({ length: rounds }, (_, round) =>
    variants.map((_, position) => variants[(round + position) % variants.length] as DrainVariant),
  ).flat()
}
