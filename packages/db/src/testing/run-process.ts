/** What a finished process printed, and how it exited. */
export interface Finished {
  stdout: string
  stderr: string
  code: number
}

/** Runs `command` to its end with stdin closed, collecting its output: how the tests drive CLIs. */
export async function runProcess(
  command: string[],
  options: { cwd: string; env: Record<string, string | undefined> },
): Promise<Finished> {
  const child = Bun.spawn(command, {
    cwd: options.cwd,
    env: options.env,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  return { stdout, stderr, code }
}
