import { type ParseArgsConfig, parseArgs } from 'node:util'
import { type CliEnv, loadCliEnv } from './env.ts'

/** A mistake in how the command was called: printed with usage, exit code 2. */
export class UsageError extends Error {}

/** True when the arguments ask for help: `--help` or `-h` anywhere before a `--`. */
export function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--')
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h')
}

/**
 * Runs a CLI entry point: `--help` or `-h` prints the usage and exits 0 (before configuration
 * is read, so help works whatever the environment); otherwise reads configuration (the CLI's,
 * unless `loadEnv` reads a wider one), maps usage errors to exit code 2 and any other failure to
 * exit code 1, with a one-line message instead of a stack trace.
 */
export async function runCommand<Env = CliEnv>(
  usage: string,
  main: (args: string[], env: Env) => Promise<void>,
  loadEnv: (source: Record<string, string | undefined>) => Env = loadCliEnv as never,
): Promise<void> {
  const args = process.argv.slice(2)
  if (asksForHelp(args)) {
    console.log(usage)
    process.exit(0)
  }
  try {
    await main(args, loadEnv(process.env))
    process.exit(0)
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${usage}`)
      process.exit(2)
    }
    console.error(`error: ${(error as Error).message}`)
    process.exit(1)
  }
}

/** `node:util` parseArgs whose complaints (unknown option, missing value) are usage errors. */
export function parseCommandArgs<Options extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: Options,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true } as const)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** Formats rows as an aligned plain-text table. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd()
  return [line(headers), ...rows.map(line)].join('\n')
}

/** A time as the CLI's tables print it: UTC, to the second; `-` for none. */
export function utcSeconds(time: Date | string | null): string {
  if (time === null) return '-'
  return (typeof time === 'string' ? time : time.toISOString()).replace(/\.\d+Z$/, 'Z')
}
