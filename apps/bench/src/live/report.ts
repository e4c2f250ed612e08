import { median } from '../read/timing.ts'
import type { LiveDrain } from './drain.ts'
import type { DrainVariant } from './rounds.ts'

/** A drain and the comparison it was measured for. */
export type ComparedDrain = LiveDrain & Pick<DrainVariant, 'comparison'>

const ratio = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(2)}×` : '–')
const whole = (value: number) => Math.round(value).toLocaleString('en')

/** A variant's drains at one size: the median rate and the spread behind it. */
function summary(drains: LiveDrain[]) {
  const rates = drains.map((drain) => drain.perSecond)
  return {
    rate: rates.length ? median(rates) : 0,
    spread: rates.length ? `${whole(Math.min(...rates))}–${whole(Math.max(...rates))}` : 'not run',
    lockWaitShare: median(drains.map((drain) => drain.lockWaitShare)) || 0,
    walBytes: median(drains.map((drain) => drain.walBytesPerDeployment)) || 0,
    fullPages: median(drains.map((drain) => drain.fullPagesPerDeployment)) || 0,
    missedPages: median(drains.map((drain) => drain.missedPagesPerDeployment)) || 0,
  }
}

const pick = (
  drains: ComparedDrain[],
  comparison: DrainVariant['comparison'],
  concurrency: number,
  held = false,
) =>
  summary(
    drains.filter(
      (d) =>
        d.comparison === comparison && d.concurrency === concurrency && d.snapshotHeld === held,
    ),
  )

/** The drain section: recorded/s per size and concurrency, each with its ratio to empty. */
export function renderDrain(
  results: { stored: number; drains: ComparedDrain[] }[],
  setting: { postgres: string; jobs: number; rounds: number; warmUpJobs: number },
): string {
  const empty = results[0]?.drains ?? []
  const empty1 = pick(empty, 'sizes', 1).rate
  const empty2 = pick(empty, 'sizes', 2).rate
  const lines = [
    '## Drain on the live shape',
    '',
    `\`bun run bench:drain\`, ${setting.postgres}: ${setting.jobs.toLocaleString('en')} deployments in the inbox, 300 applications × 4 environments × 20 repositories, deployedAt omitted (each the newest of its stream), drained by one worker process. Each figure is the median of ${setting.rounds} drains (the variants of a size take turns), with the slowest and fastest beside it; ratios are of medians, to the empty database (names created, no deployments) of the same run. Every drain starts from a copy of its size's seeded database, so at the size named, after an unmeasured drain of ${setting.warmUpJobs.toLocaleString('en')} into the copy to warm the caches, as a live workspace's are.`,
    '',
    "Lock waits: of the worker backends sampled active every 50 ms during the concurrency-2 drains, the share waiting on a lock (`pg_stat_activity.wait_event_type = Lock`), i.e. batches queueing on each other. WAL: the write-ahead log written per deployment at concurrency 1, and the whole pages in it (a page's first change after a checkpoint logs all of it). Missed: pages per deployment the database's backends did not find in Postgres's buffers (read from the operating system's cache or the disk).",
    '',
    '| stored | concurrency 1 | vs empty | concurrency 2 | vs empty | 2 vs 1 | lock waits at 2 | WAL per deployment | missed |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const { stored, drains } of results) {
    const one = pick(drains, 'sizes', 1)
    const two = pick(drains, 'sizes', 2)
    lines.push(
      `| ${stored.toLocaleString('en')} | ${whole(one.rate)}/s (${one.spread}) | ${ratio(one.rate, empty1)} | ${whole(two.rate)}/s (${two.spread}) | ${ratio(two.rate, empty2)} | ${ratio(two.rate, one.rate)} | ${(two.lockWaitShare * 100).toFixed(0)} % | ${whole(one.walBytes)} B, ${one.fullPages.toFixed(2)} pages | ${one.missedPages.toFixed(2)} |`,
    )
  }
  for (const { stored, drains } of results) {
    const held = pick(drains, 'snapshot', 1, true)
    if (held.rate === 0) continue
    const without = pick(drains, 'snapshot', 1)
    lines.push(
      '',
      `With a REPEATABLE READ snapshot held open from before the inbox was filled to the end of the drain, at ${stored.toLocaleString('en')} stored, concurrency 1: ${whole(held.rate)}/s (${held.spread}), ${ratio(held.rate, without.rate)} of the same drain without it (${whole(without.rate)}/s, ${without.spread}), the two taking turns after the drains above.`,
    )
  }
  const full = empty[0]
  if (full) {
    lines.push(
      '',
      `The queue's cost: the inbox full of ${full.jobs.toLocaleString('en')} waiting deployments (heap and primary key, before any vacuum) takes ${Math.round(full.queueBytesPerDeployment)} B per deployment; a row is deleted in the transaction that records it, and the queue's engine holds only retries and dead letters.`,
    )
  }
  return lines.join('\n')
}
