import { readFile, writeFile } from 'node:fs/promises'

const FILE = new URL('../../../docs/benchmarks.md', import.meta.url)
const startOf = (name: string) => `<!-- ${name}:start -->`
const endOf = (name: string) => `<!-- ${name}:end -->`

async function currentText(): Promise<string> {
  try {
    return await readFile(FILE, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw error
  }
}

/** The sections refreshed apart, in file order after the ingest part. */
const SECTIONS = ['drain', 'read', 'compare', 'dora', 'hooks'] as const
export type Section = (typeof SECTIONS)[number]

/** Where a section sits in the file, markers included, if it has one. */
function sectionOf(text: string, name: Section): { start: number; end: number } | undefined {
  const start = text.indexOf(startOf(name))
  const end = text.indexOf(endOf(name), start)
  return start >= 0 && end > start ? { start, end: end + endOf(name).length } : undefined
}

/**
 * The file with its ingest part, everything before the first section, replaced by `markdown`.
 * What follows stays as it is: the sections and the prose written by hand between and after
 * them (how to read a section's figures, what changed for them), which no run regenerates.
 */
export function withIngestPart(text: string, markdown: string): string {
  const starts = SECTIONS.map((name) => sectionOf(text, name)?.start ?? -1).filter(
    (start) => start >= 0,
  )
  if (starts.length === 0) return `${markdown.trimEnd()}\n`
  return `${markdown.trimEnd()}\n\n${text.slice(Math.min(...starts))}`
}

/**
 * docs/benchmarks.md holds parts refreshed apart: the ingest part (`bun apps/bench/src/main.ts`)
 * and, after it, sections between markers: the live drain (`bun run bench:drain`), reads and
 * comparisons (`bun run bench:read`), the DORA keys (`bun run bench:dora`) and the receivers
 * (`bun run bench:hooks`). Writes the ingest part and keeps the rest.
 */
export async function writeIngestPart(markdown: string): Promise<void> {
  await writeFile(FILE, withIngestPart(await currentText(), markdown))
}

/** Writes a section between its markers (appended the first time); the rest stays. */
export async function writeSection(name: Section, markdown: string): Promise<void> {
  const text = await currentText()
  const block = `${startOf(name)}\n${markdown.trim()}\n${endOf(name)}`
  const section = sectionOf(text, name)
  const next = section
    ? `${text.slice(0, section.start)}${block}${text.slice(section.end)}`
    : `${text.trimEnd()}${text.trim() ? '\n\n' : ''}${block}\n`
  await writeFile(FILE, next)
}
