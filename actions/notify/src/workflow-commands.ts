// The runner's protocol for a JavaScript action: commands on stdout, outputs in a file.

/** Escapes command data as the runner expects, so a message can neither end early nor inject. */
const escapeData = (data: string) =>
  data.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')

/** A workflow command line, e.g. `::error::message`: shown as an annotation on the run. */
export const workflowCommand = (name: string, data: string) => `::${name}::${escapeData(data)}`

/** A `name=value` line for the file named by GITHUB_OUTPUT. */
export function outputLine(name: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new Error(`output ${name} must be one line, got ${value}`)
  return `${name}=${value}\n`
}
