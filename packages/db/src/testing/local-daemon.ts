// A server the tests run as a process of its own on 127.0.0.1 (Debian's prometheus,
// Alertmanager): started on a random port, waited for until its readiness URL answers, and
// stopped with SIGTERM. A port another process holds makes it exit at once: it is started again
// on another port.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomPort } from './free-port.ts'
import { answersOk, waitFor } from './wait-for.ts'

export interface LocalDaemon {
  port: number
  base: string
  stop(): Promise<void>
}

const ATTEMPTS = 3

/**
 * Starts the command `commandOn(port)` gives; resolves once `${base}${readyPath}` answers 2xx,
 * else fails with its last output.
 */
export async function startLocalDaemon(
  commandOn: (port: number) => string[],
  readyPath: string,
  what: string,
): Promise<LocalDaemon> {
  for (let attempt = 1; ; attempt++) {
    const port = randomPort()
    const base = `http://127.0.0.1:${port}`
    const [program, ...args] = commandOn(port)
    const child: ChildProcess = spawn(program as string, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    const output: string[] = []
    child.stderr?.on('data', (chunk) => output.push(String(chunk)))
    let gone = false
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        gone = true
        resolve()
      }),
    )
    try {
      await waitFor(
        async () => gone || (await answersOk(`${base}${readyPath}`)),
        `${what} to be ready`,
        30_000,
      )
    } catch (error) {
      child.kill('SIGKILL')
      throw new Error(`${(error as Error).message}: ${output.join('').slice(-2000)}`)
    }
    if (!gone) {
      return {
        port,
        base,
        async stop() {
          child.kill('SIGTERM')
          await exited
        },
      }
    }
    if (attempt === ATTEMPTS) {
      throw new Error(`${what} exited before it was ready: ${output.join('').slice(-2000)}`)
    }
  }
}
