import { readFileSync } from 'node:fs'

/** The host's CPU time so far, from the first line of /proc/stat (in clock ticks). */
export interface CpuTimes {
  busy: number
  total: number
}

export function cpuTimes(): CpuTimes {
  const [, ...fields] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').split(/\s+/)
  const ticks = fields.filter(Boolean).map(Number)
  const total = ticks.reduce((sum, value) => sum + value, 0)
  // user nice system idle iowait irq softirq steal…: idle and iowait are the idle ones.
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0)
  return { busy: total - idle, total }
}

/** The share of all cores' time spent busy between two readings, 0 to 1. */
export function busyShare(from: CpuTimes, to: CpuTimes): number {
  const total = to.total - from.total
  return total > 0 ? (to.busy - from.busy) / total : 0
}

/**
 * Waits until the host has been mostly idle for a few seconds (less than `threshold` of its CPU
 * busy), for at most `maxWaitMs`: on this shared machine other work comes in bursts, and figures
 * taken in one say more about the neighbours than the endpoints. Resolves with the seconds waited.
 */
export async function waitForQuietHost(threshold: number, maxWaitMs: number): Promise<number> {
  const started = performance.now()
  for (;;) {
    const before = cpuTimes()
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    const quiet = busyShare(before, cpuTimes()) < threshold
    const waited = performance.now() - started
    if (quiet || waited >= maxWaitMs) return waited / 1000
  }
}
