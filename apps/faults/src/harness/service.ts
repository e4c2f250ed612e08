import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { answersOk, waitFor } from '@shiplog/db/testing'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

/** A Shiplog process (API or worker) started the way production starts it. */
export class ServiceProcess {
  readonly child: ChildProcess
  readonly lines: Record<string, unknown>[] = []
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>

  constructor(
    entry: 'apps/api/src/main.ts' | 'apps/worker/src/main.ts',
    env: Record<string, string>,
  ) {
    this.child = spawn('bun', [entry], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (!stream) continue
      createInterface({ input: stream }).on('line', (line) => {
        try {
          this.lines.push(JSON.parse(line))
        } catch {
          this.lines.push({ msg: line })
        }
      })
    }
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
    )
  }

  /** Log lines with this `msg`. */
  logged(msg: string): Record<string, unknown>[] {
    return this.lines.filter((line) => line.msg === msg)
  }

  /** Current resident memory in KiB (0 once exited). */
  rssKiB(): number {
    try {
      const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${this.child.pid}/status`, 'utf8'))
      return Number(match?.[1] ?? 0)
    } catch {
      return 0
    }
  }

  /**
   * Waits until `url` (its `/readyz`) answers 200. A timeout says whether the process still runs
   * and what it last logged, so a start that failed (a port taken, a crash) explains itself.
   */
  async untilReady(url: string, what: string, timeoutMs: number): Promise<void> {
    try {
      await waitFor(() => answersOk(url), what, timeoutMs)
    } catch (error) {
      const { exitCode, signalCode } = this.child
      const state =
        exitCode === null && signalCode === null
          ? 'still running'
          : `exited (${exitCode ?? signalCode})`
      throw new Error(
        `${(error as Error).message}; the process is ${state}; its last lines: ${JSON.stringify(this.lines.slice(-15))}`,
      )
    }
  }

  /** Sends a signal; SIGKILL is `kill -9`. */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal)
  }

  /** SIGTERM, then SIGKILL if it is still running after `graceMs`; resolves with how it ended. */
  async stop(graceMs = 20_000) {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM')
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs)
    const result = await this.exited
    clearTimeout(timer)
    return result
  }
}
