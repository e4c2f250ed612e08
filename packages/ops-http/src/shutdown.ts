import type { LogLine } from './log.ts'

/** How long a graceful stop may take, and where it reports. */
export interface ShutdownOptions {
  timeoutMs: number
  log: LogLine
}

/**
 * Stops the process gracefully on SIGTERM or SIGINT, as Kubernetes expects: `stop` runs once,
 * then the process exits 0; 1 if `stop` fails or has not finished within `timeoutMs`, rather than
 * hang until the kubelet kills it.
 */
export function stopOnSignals(
  stop: () => Promise<void>,
  { timeoutMs, log }: ShutdownOptions,
): void {
  let stopping = false
  async function shutDown(signal: string): Promise<void> {
    if (stopping) return
    stopping = true
    log({ msg: 'shutting down', signal })
    const deadline = setTimeout(() => {
      log({ level: 'error', msg: 'shutdown timed out; exiting' })
      process.exit(1)
    }, timeoutMs)
    try {
      await stop()
    } catch (error) {
      log({ level: 'error', msg: 'shutdown failed; exiting', error: String(error) })
      process.exit(1)
    }
    clearTimeout(deadline)
    log({ msg: 'stopped' })
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutDown('SIGTERM'))
  process.on('SIGINT', () => void shutDown('SIGINT'))
}
