// The one file that touches the host runtime, so the CLI runs under Bun, Node and Deno alike.

interface DenoLike {
  args: string[]
  env: { toObject(): Record<string, string> }
  exit(code: number): never
  cwd(): string
  stat(path: string): Promise<unknown>
  errors: { NotFound: new () => Error }
  Command: new (
    command: string,
    options: {
      args: string[]
      env: Record<string, string>
      stdout: 'piped'
      stderr: 'piped'
    },
  ) => { output(): Promise<{ code: number; stdout: Uint8Array; stderr: Uint8Array }> }
}

interface NodeLike {
  argv: string[]
  env: Record<string, string | undefined>
  exitCode?: number | string
  exit(code?: number): never
  cwd(): string
}

const host = globalThis as { Deno?: DenoLike; process?: NodeLike }

/** The command-line arguments after the script name. */
export function commandArgs(): string[] {
  if (host.Deno) return host.Deno.args
  return host.process?.argv.slice(2) ?? []
}

/** The environment variables (Deno needs `--allow-env`). */
export function environment(): Record<string, string | undefined> {
  if (host.Deno) return host.Deno.env.toObject()
  return host.process?.env ?? {}
}

/** Ends the process with `code`, once pending output has been written where that matters. */
export function exit(code: number): void {
  if (host.Deno) host.Deno.exit(code)
  // Setting exitCode instead of calling exit() lets Node flush piped stdout first.
  else if (host.process) host.process.exitCode = code
}

/** The directory the command runs in. */
export function workingDirectory(): string {
  if (host.Deno) return host.Deno.cwd()
  return host.process?.cwd() ?? '.'
}

/** Whether anything exists at `path` (false too when it may not be read, e.g. no Deno --allow-read). */
export async function pathExists(path: string): Promise<boolean> {
  try {
    if (host.Deno) await host.Deno.stat(path)
    else await (await import('node:fs/promises')).stat(path)
    return true
  } catch {
    return false
  }
}

/**
 * What a finished command printed, and its exit code (-1 when it could not be started;
 * `notFound` when no such program is installed).
 */
export interface CommandResult {
  code: number
  stdout: string
  stderr: string
  notFound?: true
}

/**
 * Runs a program (git) in the working directory and collects its output; `env` is added to the
 * inherited environment.
 */
export async function runProgram(
  program: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CommandResult> {
  if (host.Deno) {
    const { Deno } = host
    try {
      const out = await new Deno.Command(program, {
        args,
        env,
        stdout: 'piped',
        stderr: 'piped',
      }).output()
      const text = new TextDecoder()
      return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) }
    } catch (error) {
      const failed = { code: -1, stdout: '', stderr: String(error) }
      return error instanceof Deno.errors.NotFound ? { ...failed, notFound: true } : failed
    }
  }
  const { execFile } = await import('node:child_process')
  const options = { maxBuffer: 256 * 1024 * 1024, env: { ...host.process?.env, ...env } }
  return new Promise((resolve) => {
    execFile(program, args, options, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      const result = {
        code,
        stdout: String(stdout),
        stderr: String(stderr || (error?.message ?? '')),
      }
      resolve(error?.code === 'ENOENT' ? { ...result, notFound: true } : result)
    })
  })
}
