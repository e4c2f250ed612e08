// `bun run docs:config`: writes docs/configuration.md from the env schemas of the API, the worker
// and the CLI, which are what each process validates at start; scripts/config-docs.test.ts fails
// while the committed file differs, so the two cannot drift.
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { type EnvSchema, envVariables } from '@shiplog/config'
import { ApiEnv } from '../apps/api/src/env.ts'
import { SIGN_IN_SETTINGS } from '../apps/api/src/modules/access/sign-in-env.ts'
import { CliEnv, IntegrationsSettings } from '../apps/cli/src/env.ts'
import { WorkerEnv } from '../apps/worker/src/env.ts'

/** Where the generated reference goes. */
export const CONFIGURATION_DOC = fileURLToPath(new URL('../docs/configuration.md', import.meta.url))

const signIn = Object.keys(SIGN_IN_SETTINGS)

/** One app's variables: a section of the document. */
interface Section {
  title: string
  schema: EnvSchema
  note?: string
}

const SECTIONS: Section[] = [
  {
    title: 'API (`apps/api/src/env.ts`)',
    schema: ApiEnv,
    note: `The sign-in variables, \`${signIn[0]}\` to \`${signIn.at(-1)}\`, are declared in
\`apps/api/src/modules/access/sign-in-env.ts\` ([sign-in.md](sign-in.md)).`,
  },
  { title: 'Worker (`apps/worker/src/env.ts`)', schema: WorkerEnv },
  { title: 'Migration step and CLI (`apps/cli/src/env.ts`)', schema: CliEnv },
  {
    title: '`bun run integrations` (`apps/cli/src/env.ts`)',
    schema: IntegrationsSettings,
    note: `Besides the CLI's variables above, the API's settings it shares: it seals secrets the API
opens and prints URLs the API answers at, so run it where the API runs, whose pod has them
([integrations.md](integrations.md)).`,
  },
]

const INTRO = `# Configuration

Every process reads its settings from environment variables, validated at start: a bad value
stops the process with a message naming the variable and what it accepts. Each app reads them in
one file, its \`env.ts\`, and nowhere else.

This file is generated from those schemas by \`bun run docs:config\`, and a test fails while it
differs from them: change a variable's \`description\` in its schema, not here. **Default** is the
value an unset or empty variable takes; *required*: the process does not start without it;
*unset*: it is optional, and its meaning says what leaving it out does. **Accepted** is worded as
the error that refuses a bad value.
`

// Markdown tables end a cell at a pipe; a description may hold one in code.
const cell = (text: string) => text.replaceAll('|', '\\|')

/** An aligned Markdown table, as the repository's other documents have them. */
function table(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, column) =>
    Math.max(3, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (row: string[]) =>
    `| ${row.map((text, column) => text.padEnd(widths[column] ?? 0)).join(' | ')} |`
  const [header = [], ...body] = rows
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join(
    '\n',
  )
}

/** One app's table; throws naming every variable its schema leaves undescribed. */
export function variablesTable(schema: EnvSchema): string {
  const variables = envVariables(schema)
  const undescribed = variables.filter((v) => !v.description?.trim()).map((v) => v.name)
  if (undescribed.length > 0) {
    throw new Error(`no description in the env schema for ${undescribed.join(', ')}`)
  }
  const defaultOf = (v: (typeof variables)[number]) =>
    v.default !== undefined ? `\`${v.default}\`` : v.required ? '*required*' : '*unset*'
  return table([
    ['Variable', 'Default', 'Accepted', 'Meaning'],
    ...variables.map((v) => [
      `\`${v.name}\``,
      cell(defaultOf(v)),
      cell(v.accepted),
      cell(v.description ?? ''),
    ]),
  ])
}

/** docs/configuration.md as the schemas say it should read. */
export function configurationDoc(): string {
  const sections = SECTIONS.map(({ title, schema, note }) =>
    [`## ${title}`, ...(note ? [note] : []), variablesTable(schema)].join('\n\n'),
  )
  return `${[INTRO.trimEnd(), ...sections].join('\n\n')}\n`
}

if (import.meta.main) {
  await writeFile(CONFIGURATION_DOC, configurationDoc())
  console.log('wrote docs/configuration.md')
}
