import type { CreatedDeployment } from './client.ts'

/** Where the command writes: stdout for results, stderr for errors. */
export interface Output {
  out(line: string): void
  err(line: string): void
  /**
   * Something the user must fix that did not stop the deployment (its commits could not be
   * read), as the CI shows a warning; `err` with a `warning: ` prefix when not given.
   */
  warn?(message: string): void
  /**
   * Something worth knowing that needs nothing done (a request being retried through an outage),
   * as the CI shows a notice; a plain `err` line when not given.
   */
  note?(message: string): void
  /** The receipt, as soon as the API has accepted the deployment (the GitHub Action's outputs). */
  accepted?(created: CreatedDeployment): void
}

/** Writes a warning the way `output` shows one. */
export function warn(output: Output, message: string): void {
  if (output.warn) output.warn(message)
  else output.err(`warning: ${message}`)
}

/** Writes a notice the way `output` shows one. */
export function note(output: Output, message: string): void {
  if (output.note) output.note(message)
  else output.err(message)
}
