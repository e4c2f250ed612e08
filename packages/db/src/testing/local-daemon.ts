// A server the tests run as a process of its own on 127.0.0.1 (Debian's prometheus,
// Alertmanager): started, waited for until its readiness URL answers, and stopped with SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process'
import { answersOk, waitFor } from './wait-for.ts'

export interface LocalDaemon {
  stop(): Promise<void>
}

/** Starts `command`; resolves once `readyUrl` answers 2xx, else fails with its last output. */
export async function startLocalDaemon(
  command: string[],
  readyUrl: string,
  what: string,
): Promise<LocalDaemon> {
  const [program, ...args] = command
  const child: ChildProcess = spawn(program as string, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const output: string[] = []
  child.stderr?.on('data', (chunk) => output.push(String(chunk)))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await waitFor(() => answersOk(readyUrl), `${what} to be ready`, 30_000).catch((error) => {
    child.kill('SIGKILL')
    throw new Error(`${error.message}: ${output.join('').slice(-2000)}`)
  })
  return {
    async stop() {
      child.kill('SIGTERM')
      await exited
    },
  }
}
