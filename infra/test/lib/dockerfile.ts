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

/** The build arguments a stage declares, each with its default (`ARG NAME=default`). */
export function argsOf(stage: Stage): Map<string, string> {
  const args = new Map<string, string>()
  for (const {
    op,
    args: [declared = ''],
  } of stage.instructions) {
    if (op !== 'ARG') continue
    const [name = '', ...value] = declared.split('=')
    args.set(name, value.join('='))
  }
  return args
}

/**
 * The labels a stage sets, as an image built with `buildArgs` would carry them: `${NAME}` filled
 * from those, else from the stage's ARG defaults (what `docker inspect` shows).
 */
export function labelsOf(
  stage: Stage,
  buildArgs: Record<string, string> = {},
): Map<string, string> {
  const values = new Map([...argsOf(stage), ...Object.entries(buildArgs)])
  const labels = new Map<string, string>()
  for (const { op, text } of stage.instructions) {
    if (op !== 'LABEL') continue
    for (const [, key = '', quoted, bare] of text.matchAll(/([\w.-]+)=(?:"([^"]*)"|(\S+))/g)) {
      const value = (quoted ?? bare ?? '').replace(
        /\$\{(\w+)\}/g,
        (_, name) => values.get(name) ?? '',
      )
      labels.set(key, value)
    }
  }
  return labels
}

/** The numeric user and group of a stage's last USER instruction (`USER 10001:10001`). */
export function userOf(stage: Stage): { uid: number; gid: number } | undefined {
  const user = stage.instructions.filter((i) => i.op === 'USER').at(-1)?.args[0]
  const match = /^(\d+):(\d+)$/.exec(user ?? '')
  return match ? { uid: Number(match[1]), gid: Number(match[2]) } : undefined
}

/** A stage's COPY instructions from an earlier stage: `COPY --from=cli /app/x ./x`. */
export function stageCopies(stage: Stage): { from: string; source: string; target: string }[] {
  return stage.instructions.flatMap((i) => {
    const from = i.args.find((arg) => arg.startsWith('--from='))?.slice('--from='.length)
    const [source = '', target = ''] = i.args.filter((arg) => !arg.startsWith('--'))
    return i.op === 'COPY' && from ? [{ from, source, target }] : []
  })
}

/**
 * Whether `.dockerignore` keeps `path` out of the build context: the last pattern that matches
 * decides, and a `!` pattern lets a path back in. Patterns here are a name or `*.ext` at any depth
 * (after `**` and a slash) or a path from the context's root, which covers everything under it.
 */
export function dockerIgnores(patterns: string[], path: string): boolean {
  const segments = path.split('/')
  const matches = (pattern: string) => {
    if (pattern.startsWith('**/*')) return path.endsWith(pattern.slice(4))
    if (pattern.startsWith('**/')) return segments.includes(pattern.slice(3))
    return path === pattern || path.startsWith(`${pattern}/`)
  }
  let ignored = false
  for (const pattern of patterns) {
    const exception = pattern.startsWith('!')
    if (matches(exception ? pattern.slice(1) : pattern)) ignored = !exception
  }
  return ignored
}
