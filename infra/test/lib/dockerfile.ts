/** One instruction of a Dockerfile, e.g. { op: 'COPY', args: ['--from=deps', '/app', './'] }. */
export interface Instruction {
  op: string
  args: string[]
  text: string
}

/** A build stage: its base image, its alias and its instructions after FROM. */
export interface Stage {
  from: string
  name?: string
  instructions: Instruction[]
}

/** Splits a Dockerfile into stages; enough of the syntax for the Dockerfile in this repository. */
export function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
  const stages: Stage[] = []
  for (const line of lines) {
    const [op = '', ...rest] = line.split(/\s+/)
    const args =
      op.toUpperCase() === 'CMD' || op.toUpperCase() === 'ENTRYPOINT' ? [rest.join(' ')] : rest
    const instruction = { op: op.toUpperCase(), args, text: line }
    if (instruction.op === 'FROM') {
      const [from = '', as, name] = args.filter((arg) => !arg.startsWith('--'))
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] })
    } else {
      stages.at(-1)?.instructions.push(instruction)
    }
  }
  return stages
}

/** The sources of a stage's COPY instructions from the build context (not from other stages). */
export function contextCopies(stage: Stage): string[] {
  return stage.instructions
    .filter((i) => i.op === 'COPY' && !i.args.some((arg) => arg.startsWith('--from')))
    .flatMap((i) => i.args.filter((arg) => !arg.startsWith('--')).slice(0, -1))
}

/** The ENV variables a stage sets, in either `ENV A=1 B=2` or `ENV A 1` form. */
export function envOf(stage: Stage): Map<string, string> {
  const env = new Map<string, string>()
  for (const { op, args } of stage.instructions) {
    if (op !== 'ENV') continue
    if (args[0]?.includes('=')) {
      for (const pair of args) {
        const [name = '', ...value] = pair.split('=')
        env.set(name, value.join('='))
      }
    } else if (args[0]) {
      env.set(args[0], args.slice(1).join(' '))
    }
  }
  return env
}
