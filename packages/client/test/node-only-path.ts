import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A PATH holding these programs only, and how to remove it. */
export interface ToolPath {
  path: string
  remove: () => Promise<void>
}

/**
 * A PATH holding only `tools`, as on a CI runner or in an image that has those and nothing else.
 * Bun is installed next to node here (/usr/bin), so the real directories cannot simply be
 * filtered: each tool gets a link in a directory of its own (`dir`, else a new temporary one).
 */
export async function toolPath(tools: string[], dir?: string): Promise<ToolPath> {
  if (dir) await mkdir(dir, { recursive: true })
  else dir = await mkdtemp(join(tmpdir(), 'shiplog-tools-'))
  for (const tool of tools) {
    const found = Bun.which(tool)
    if (!found) throw new Error(`${tool} is not on PATH: install it to run this test`)
    await symlink(found, join(dir, tool))
  }
  const made = dir
  return { path: made, remove: () => rm(made, { recursive: true, force: true }) }
}

/** A PATH holding only node, npm, npx and sh, as on a CI runner without Bun. */
export function nodeOnlyPath(dir?: string): Promise<ToolPath> {
  return toolPath(['node', 'npm', 'npx', 'sh'], dir)
}
