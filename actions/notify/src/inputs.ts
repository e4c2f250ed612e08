import { UsageError } from '../../../packages/client/src/notify-args.ts'

type Env = Readonly<Record<string, string | undefined>>

/** An input as the runner passes it: `INPUT_` + the name upper-cased, spaces as `_` (dashes stay). */
export const inputVariable = (name: string) => `INPUT_${name.replaceAll(' ', '_').toUpperCase()}`

const FLAGS = [
  'url',
  'api-key',
  'app',
  'environment',
  'version',
  'monorepo-path',
  'description',
  'idempotency-key',
  'retry-for',
]
/** Inputs that are switches: `--name` when true. */
const SWITCHES = ['wait', 'require-commits']
const REQUIRED = ['url', 'api-key', 'app', 'environment', 'version']
/** Required inputs a step may leave out when the job's environment has the variable instead. */
const FALLBACK: Readonly<Record<string, string>> = {
  url: 'SHIPLOG_URL',
  'api-key': 'SHIPLOG_API_KEY',
}

function readSwitch(name: string, raw: string): boolean {
  // The YAML 1.2 core-schema booleans, as the runner's own `getBooleanInput` accepts them.
  if (/^(true|True|TRUE)$/.test(raw)) return true
  if (/^(false|False|FALSE|)$/.test(raw)) return false
  throw new UsageError(`input ${name} must be true or false, got ${JSON.stringify(raw)}`)
}

/**
 * The action's inputs as `shiplog notify` flags, so the command's own parsing (and its fallback to
 * SHIPLOG_URL, SHIPLOG_API_KEY and the GITHUB_* variables) applies unchanged. Inputs left empty
 * are not passed; missing required ones are named as inputs rather than as flags.
 */
export function notifyArgs(env: Env): string[] {
  const value = (name: string) => env[inputVariable(name)]?.trim() ?? ''
  const missing = REQUIRED.filter(
    (name) => value(name) === '' && !env[FALLBACK[name] ?? '']?.trim(),
  )
  if (missing.length > 0) {
    const [noun, pronoun] = missing.length === 1 ? ['input', 'it'] : ['inputs', 'them']
    throw new UsageError(`missing ${noun} ${missing.join(', ')}: set ${pronoun} under \`with:\``)
  }
  // `--name=value`, so a value starting with a dash is not taken for a flag.
  const args = FLAGS.filter((name) => value(name) !== '').map((name) => `--${name}=${value(name)}`)
  for (const name of SWITCHES) if (readSwitch(name, value(name))) args.push(`--${name}`)
  return args
}
