// The one file that touches the host runtime, so the CLI runs under Bun, Node and Deno alike.

interface DenoLike {
  args: string[]
  env: { toObject(): Record<string, string> }
  exit(code: number): never
  Command: new (
    command: string,
    options: { args: string[]; stdout: 'piped'; stderr: 'piped' },
  ) => { output(): Promise<{ code: number; stdout: Uint8Array; stderr: Uint8Array }> }
}

interface NodeLike {
  argv: string[]
  env: Record<string, string | undefined>
  exitCode?: number | string
  exit(code?: number): never
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

/** What a finished command printed, and its exit code (-1 when it could not be started). */
export interface CommandResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs a program (git) in the working directory and collects its output. */
export async function runProgram(program: string, args: string[]): Promise<CommandResult> {
  if (host.Deno) {
    try {
      const out = await new host.Deno.Command(program, {
        args,
        stdout: 'piped',
        stderr: 'piped',
      }).output()
      const text = new TextDecoder()
      return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) }
    } catch (error) {
      return { code: -1, stdout: '', stderr: String(error) }
    }
  }
  const { execFile } = await import('node:child_process')
  return new Promise((resolve) => {
    execFile(program, args, { maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      resolve({ code, stdout: String(stdout), stderr: String(stderr || (error?.message ?? '')) })
    })
  })
}
