import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** A Shiplog process started for the benchmark, as production starts it. */
export interface BenchProcess {
  child: ChildProcess
  /** Peak resident memory so far and its split, from /proc (KiB). */
  memory(): { peakKiB: number; anonKiB: number; fileKiB: number }
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number | null>
}

function readStatus(pid: number): Record<string, number> {
  const fields: Record<string, number> = {}
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const match = /^(\w+):\s+(\d+) kB/.exec(line)
    if (match) fields[match[1] as string] = Number(match[2])
  }
  return fields
}

/**
 * Starts `bun <entry>` from the repository root with the given environment; output discarded.
 * `runtimeFlags` go to Bun itself, e.g. `--cpu-prof-md` to profile a run.
 */
export function startProcess(
  entry: string,
  env: Record<string, string>,
  runtimeFlags: string[] = [],
): BenchProcess {
  const child = spawn('bun', [...runtimeFlags, entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  let peak = { peakKiB: 0, anonKiB: 0, fileKiB: 0 }
  const sample = () => {
    try {
      const status = readStatus(child.pid as number)
      const current = {
        peakKiB: status.VmHWM ?? 0,
        anonKiB: status.RssAnon ?? 0,
        fileKiB: status.RssFile ?? 0,
      }
      if (current.anonKiB + current.fileKiB >= peak.anonKiB + peak.fileKiB) peak = current
      else peak = { ...peak, peakKiB: current.peakKiB }
    } catch {
      // The process has exited; keep the last sample.
    }
  }
  const sampler = setInterval(sample, 200)
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return {
    child,
    memory: () => {
      sample()
      return peak
    },
    async stop() {
      sample()
      clearInterval(sampler)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return exited
    },
  }
}

/** Polls `url` until it answers 200; fails if the process exits or the timeout passes. */
export async function waitUntilReady(
  url: string,
  process: BenchProcess,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (process.child.exitCode !== null)
      throw new Error(`the process exited (${process.child.exitCode})`)
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not become ready within ${timeoutMs} ms`)
}

/** Runs one of the load generators as its own process and parses its JSON answer. */
export function runLoad<T>(script: 'load.ts' | 'paced-load.ts', plan: object): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn('bun', [fileURLToPath(new URL(script, import.meta.url))], {
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    child.stdin.end(JSON.stringify(plan))
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(output) as T)
      else reject(new Error(`${script} exited with ${code}`))
    })
  })
}
