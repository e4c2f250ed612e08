// Bundles the `shiplog` command (packages/client/src/cli.ts, with its dependencies) into one ES
// module for Node 20 or later, which the API serves at GET /cli/shiplog.mjs so that a pipeline
// fetches the CLI from the Shiplog it reports to: no registry, no install. Built, not committed:
// `bun run build` (or `build:cli`), `bun run dev`, every `bun test` run (scripts/test-preload.ts),
// the Dockerfile's `cli` stage and `.ci/run` write it, so what the API serves is always this
// checkout's CLI.
//   bun scripts/build-cli.ts [outfile]
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where the API serves the bundle from (apps/api/src/modules/cli/service.ts reads it). */
export const CLI_BUNDLE = fileURLToPath(
  new URL('../apps/api/dist/cli/shiplog.mjs', import.meta.url),
)

const ENTRY = fileURLToPath(new URL('../packages/client/src/cli.ts', import.meta.url))

/** The bundle's text: the entry's `bun` shebang becomes `node`, which is what runs it. */
export async function buildCli(): Promise<string> {
  const built = await Bun.build({ entrypoints: [ENTRY], target: 'node', format: 'esm' })
  const [output] = built.outputs
  if (!built.success || !output) throw new AggregateError(built.logs, 'bundling the CLI failed')
  return (await output.text()).replace(/^#!.*\n/, '#!/usr/bin/env node\n')
}

/**
 * Builds the bundle into `outfile`. Written beside it and renamed into place, so an API starting
 * meanwhile (another test run, `bun run dev`) reads the old bundle or the new, never half of one.
 */
export async function writeCliBundle(outfile = CLI_BUNDLE): Promise<void> {
  const text = await buildCli()
  await mkdir(dirname(outfile), { recursive: true })
  const partial = `${outfile}.${process.pid}.partial`
  await writeFile(partial, text)
  await rename(partial, outfile)
}

if (import.meta.main) await writeCliBundle(process.argv[2])
