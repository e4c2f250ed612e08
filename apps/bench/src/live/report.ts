import type { LiveDrain } from './drain.ts'

const rate = (drain: LiveDrain | undefined) => (drain ? Math.round(drain.perSecond) : 0)
const ratio = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(2)}×` : '–')

/** The drain section: recorded/s per size and concurrency, each with its ratio to empty. */
export function renderDrain(
  results: { stored: number; drains: LiveDrain[] }[],
  setting: { postgres: string; jobs: number },
): string {
  const find = (stored: number, concurrency: number, held = false) =>
    results
      .find((r) => r.stored === stored)
      ?.drains.find((d) => d.concurrency === concurrency && d.snapshotHeld === held)
  const empty1 = rate(find(results[0]?.stored ?? 0, 1))
  const empty2 = rate(find(results[0]?.stored ?? 0, 2))
  const lines = [
    '## Drain on the live shape',
    '',
    `\`bun run bench:drain\`, ${setting.postgres}: ${setting.jobs.toLocaleString('en')} deployments in the inbox, 300 applications × 4 environments × 20 repositories, deployedAt omitted (each the newest of its stream), drained by one worker process. Ratios are to the empty database (names created, no deployments) of the same run.`,
    '',
    'Lock waits: of the worker backends sampled active every 50 ms during the concurrency-2 drain, the share waiting on a lock (`pg_stat_activity.wait_event_type = Lock`), i.e. batches queueing on each other.',
    '',
    '| stored | concurrency 1 | vs empty | concurrency 2 | vs empty | 2 vs 1 | lock waits at 2 |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const { stored, drains } of results) {
    const one = rate(drains.find((d) => d.concurrency === 1 && !d.snapshotHeld))
    const two = rate(drains.find((d) => d.concurrency === 2 && !d.snapshotHeld))
    const locks = drains.find((d) => d.concurrency === 2 && !d.snapshotHeld)?.lockWaitShare ?? 0
    lines.push(
      `| ${stored.toLocaleString('en')} | ${one}/s | ${ratio(one, empty1)} | ${two}/s | ${ratio(two, empty2)} | ${ratio(two, one)} | ${(locks * 100).toFixed(0)} % |`,
    )
  }
  for (const { stored, drains } of results) {
    const held = drains.find((d) => d.snapshotHeld)
    if (!held) continue
    const without = rate(drains.find((d) => d.concurrency === held.concurrency && !d.snapshotHeld))
    lines.push(
      '',
      `With a REPEATABLE READ snapshot held open from before the inbox was filled to the end of the drain, at ${stored.toLocaleString('en')} stored, concurrency ${held.concurrency}: ${rate(held)}/s, ${ratio(rate(held), without)} of the same drain without it.`,
    )
  }
  const full = results[0]?.drains[0]
  if (full) {
    lines.push(
      '',
      `The queue's cost: the inbox full of ${full.jobs.toLocaleString('en')} waiting deployments (heap and primary key, before any vacuum) takes ${Math.round(full.queueBytesPerDeployment)} B per deployment; a row is deleted in the transaction that records it, and pg-boss holds only retries and dead letters.`,
    )
  }
  return lines.join('\n')
}
