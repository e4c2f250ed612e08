// The one file that touches the host runtime, so the CLI runs under Bun, Node and Deno alike.

interface DenoLike {
  args: string[]
  env: { toObject(): Record<string, string> }
  exit(code: number): never
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
