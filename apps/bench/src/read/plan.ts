/** What the read benchmark seeds and how often it asks each endpoint. */
export interface ReadPlan {
  /** Deployment counts, ascending: the database is seeded afresh to each in turn. */
  sizes: number[]
  /** Rounds over every endpoint before timing, at least; see timing.ts for why more may run. */
  warmups: number
  /** Timed rounds over every endpoint; each endpoint's figure is the median of these. */
  samples: number
  /** Longest wait for a quiet host before timing each size (BENCH_READ_QUIET_WAIT, seconds). */
  quietWaitSeconds: number
  /** Leave the database in place at the end (BENCH_READ_KEEP=1), to look into a figure. */
  keepDatabase: boolean
  /**
   * The comparison and CSV export phase, after the sizes: deployments seeded afresh (0 skips
   * it) and commits each (BENCH_READ_COMPARE_DEPLOYMENTS, BENCH_READ_COMPARE_COMMITS).
   */
  compare: { deployments: number; commitsPerDeployment: number }
}

const DEFAULT_SIZES = [100_000, 1_000_000, 5_000_000]

/** A whole number above zero from an environment variable's text (underscores allowed). */
export function positiveInteger(name: string, text: string): number {
  const value = Number(text.replaceAll('_', ''))
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`${name}: "${text}" is not a positive whole number`)
  return value
}

/**
 * The plan from BENCH_READ_SIZES (comma-separated, ascending, e.g. `100000,1000000`; `none` for
 * the comparison phase alone),
 * BENCH_READ_WARMUPS, BENCH_READ_SAMPLES, BENCH_READ_QUIET_WAIT and BENCH_READ_KEEP; defaults:
 * 100k, 1M and 5M, 10 warm-ups, 31 samples, up to 180 s of waiting, the database dropped.
 */
export function readPlanFrom(env: Record<string, string | undefined>): ReadPlan {
  const sizes =
    env.BENCH_READ_SIZES === 'none'
      ? []
      : env.BENCH_READ_SIZES
        ? env.BENCH_READ_SIZES.split(',').map((size) =>
            positiveInteger('BENCH_READ_SIZES', size.trim()),
          )
        : DEFAULT_SIZES
  if (sizes.some((size, index) => index > 0 && size <= (sizes[index - 1] as number)))
    throw new Error(`BENCH_READ_SIZES must ascend: ${sizes.join(',')}`)
  const samples = positiveInteger('BENCH_READ_SAMPLES', env.BENCH_READ_SAMPLES ?? '31')
  // A median of fewer says little on this noisy machine.
  if (samples < 7) throw new Error('BENCH_READ_SAMPLES must be at least 7')
  return {
    sizes,
    warmups: positiveInteger('BENCH_READ_WARMUPS', env.BENCH_READ_WARMUPS ?? '10'),
    samples,
    quietWaitSeconds: positiveInteger('BENCH_READ_QUIET_WAIT', env.BENCH_READ_QUIET_WAIT ?? '180'),
    keepDatabase: env.BENCH_READ_KEEP === '1',
    compare: {
      deployments:
        env.BENCH_READ_COMPARE_DEPLOYMENTS === '0'
          ? 0
          : positiveInteger(
              'BENCH_READ_COMPARE_DEPLOYMENTS',
              env.BENCH_READ_COMPARE_DEPLOYMENTS ?? '1000000',
            ),
      commitsPerDeployment: positiveInteger(
        'BENCH_READ_COMPARE_COMMITS',
        env.BENCH_READ_COMPARE_COMMITS ?? '5',
      ),
    },
  }
}
