// The runner's protocol for a JavaScript action: commands on stdout, outputs in a file.

export { workflowCommand } from '../../../packages/client/src/ci-output.ts'

/** A `name=value` line for the file named by GITHUB_OUTPUT. */
export function outputLine(name: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new Error(`output ${name} must be one line, got ${value}`)
  return `${name}=${value}\n`
}
