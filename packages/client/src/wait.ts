import type { DeploymentStatus } from '@shiplog/schema'
import { DeploymentFailedError, DeploymentWaitTimeoutError } from './errors.ts'
import type { Sleep } from './transport.ts'

export interface WaitOptions {
  /** Give up after this long; default 120 000 ms. */
  timeoutMs?: number
  /** Pause between polls; default 1 000 ms. */
  intervalMs?: number
}

export const DEFAULT_WAIT_TIMEOUT_MS = 120_000
const DEFAULT_INTERVAL_MS = 1_000

/**
 * Polls `get` (given the deadline, past which it should not retry) until the deployment is
 * `recorded` (resolves with it) or `failed` (throws `DeploymentFailedError`), throwing
 * `DeploymentWaitTimeoutError` once `timeoutMs` has passed. The clock and sleep are parameters so
 * the loop can be tested without waiting.
 */
export async function pollUntilRecorded(
  get: (deadline: number) => Promise<DeploymentStatus>,
  options: WaitOptions & { sleep: Sleep; now: () => number },
): Promise<DeploymentStatus> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS
  const deadline = options.now() + timeoutMs
  for (;;) {
    const deployment = await get(deadline)
    if (deployment.status === 'recorded') return deployment
    if (deployment.status === 'failed') throw new DeploymentFailedError(deployment)
    const left = deadline - options.now()
    if (left <= 0) throw new DeploymentWaitTimeoutError(deployment, timeoutMs)
    // The last poll lands on the deadline rather than a whole interval past it.
    await options.sleep(Math.min(intervalMs, left))
  }
}
