// Bundles the `shiplog` command (packages/client/src/cli.ts, with its dependencies) into one ES
// module for Node 20 or later, which the API serves at GET /cli/shiplog.mjs so that a pipeline
// fetches the CLI from the Shiplog it reports to: no registry, no install. The bundle is committed
// (like the GitHub Action's), so the API, its image and Deno serve it with no build step;
// apps/api/test/cli.test.ts fails while it differs from a fresh build.
//   bun scripts/build-cli.ts [outfile]
import { fileURLToPath } from 'node:url'

/** Where the API serves the bundle from. */
export const CLI_BUNDLE = fileURLToPath(
  new URL('../apps/api/src/modules/cli/dist/shiplog.mjs', import.meta.url),
)

const ENTRY = fileURLToPath(new URL('../packages/client/src/cli.ts', import.meta.url))

/** The bundle's text: the entry's `bun` shebang becomes `node`, which is what runs it. */
export async function buildCli(): Promise<string> {
  const built = await Bun.build({ entrypoints: [ENTRY], target: 'node', format: 'esm' })
  const [output] = built.outputs
  if (!built.success || !output) throw new AggregateError(built.logs, 'bundling the CLI failed')
  return (await output.text()).replace(/^#!.*\n/, '#!/usr/bin/env node\n')
}

if (import.meta.main) await Bun.write(process.argv[2] ?? CLI_BUNDLE, await buildCli())
