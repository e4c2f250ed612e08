import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

/** The `shiplog` CLI as one file for Node, and its SHA-256 (hex). */
export interface CliBundle {
  body: Uint8Array<ArrayBuffer>
  sha256: string
}

// Built into the API's dist/ (git-ignored) by scripts/build-cli.ts, not committed: `bun run build`
// here, the Dockerfile's `cli` stage in the image.
const BUNDLE = new URL('../../../dist/cli/shiplog.mjs', import.meta.url)

let loaded: CliBundle | undefined

/**
 * The bundle of the CLI of this very version (`bun run build` makes it), read once per process:
 * serving it needs neither the database nor the network, so a pipeline on an air-gapped cluster
 * gets it from the Shiplog it reports to.
 */
export function loadCliBundle(): CliBundle {
  if (loaded) return loaded
  let body: Uint8Array<ArrayBuffer>
  try {
    body = readFileSync(BUNDLE)
  } catch (error) {
    throw new Error(
      `the CLI bundle ${BUNDLE.pathname} cannot be read (${(error as Error).message}): run \`bun run build\``,
    )
  }
  loaded = { body, sha256: createHash('sha256').update(body).digest('hex') }
  return loaded
}
