import type { Env } from './ci-env.ts'
import type { Output } from './notify-output.ts'

/** Escapes command data as the runner expects, so a message can neither end early nor inject. */
const escapeData = (data: string) =>
  data.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')

/** A GitHub Actions workflow command line, e.g. `::warning::message`: an annotation on the run. */
export const workflowCommand = (name: string, data: string) => `::${name}::${escapeData(data)}`

/**
 * The console as the CLI writes to it: results on stdout, errors on stderr, and a warning or a
 * notice as the CI shows one: an annotation in GitHub Actions (the runner reads workflow commands
 * from stderr too), a `warning:` or plain line on stderr elsewhere.
 */
export function consoleOutput(env: Env): Output {
  const github = env.GITHUB_ACTIONS?.trim() === 'true'
  return {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    warn: (message) =>
      console.error(github ? workflowCommand('warning', message) : `warning: ${message}`),
    note: (message) => console.error(github ? workflowCommand('notice', message) : message),
  }
}
