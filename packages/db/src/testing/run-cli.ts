import { fileURLToPath } from 'node:url'
import { type Finished, runProcess } from './run-process.ts'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

/** Runs `bun run <script> …args` from the repository root, as a user or operator would. */
export function runCli(args: string[], env: Record<string, string>): Promise<Finished> {
  return runProcess(['bun', 'run', '--silent', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  })
}
