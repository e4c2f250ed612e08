import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const TOOLS = ['node', 'npm', 'npx', 'sh']

/**
 * A PATH holding only node, npm, npx and sh, as on a CI runner without Bun. Bun is installed next
 * to node here (/usr/bin), so the real directories cannot simply be filtered: each tool gets a
 * link in a directory of its own (`dir`, else a new temporary one). Remove it with `remove`.
 */
export async function nodeOnlyPath(
  dir?: string,
): Promise<{ path: string; remove: () => Promise<void> }> {
  if (dir) await mkdir(dir, { recursive: true })
  else dir = await mkdtemp(join(tmpdir(), 'shiplog-node-only-'))
  for (const tool of TOOLS) {
    const found = Bun.which(tool)
    if (!found) throw new Error(`${tool} is not on PATH: install Node 20 or later (it brings npm)`)
    await symlink(found, join(dir, tool))
  }
  const made = dir
  return { path: made, remove: () => rm(made, { recursive: true, force: true }) }
}
