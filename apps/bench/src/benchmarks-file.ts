import { readFile, writeFile } from 'node:fs/promises'

const FILE = new URL('../../../docs/benchmarks.md', import.meta.url)
const READ_START = '<!-- read:start -->'
const READ_END = '<!-- read:end -->'

async function currentText(): Promise<string> {
  try {
    return await readFile(FILE, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw error
  }
}

/** Where the read section sits in the file, markers included, if it has one. */
function readSectionOf(text: string): { start: number; end: number } | undefined {
  const start = text.indexOf(READ_START)
  const end = text.indexOf(READ_END, start)
  return start >= 0 && end > start ? { start, end: end + READ_END.length } : undefined
}

/**
 * docs/benchmarks.md holds two parts refreshed apart: the ingest part (`bun apps/bench/src/main.ts`)
 * and, after it, the read section between its markers (`bun run bench:read`). Writes the ingest
 * part and keeps the read section as it is.
 */
export async function writeIngestPart(markdown: string): Promise<void> {
  const text = await currentText()
  const section = readSectionOf(text)
  const kept = section ? `\n${text.slice(section.start, section.end)}\n` : ''
  await writeFile(FILE, `${markdown.trimEnd()}\n${kept}`)
}

/** Writes the read section between its markers (appended the first time); the rest stays. */
export async function writeReadSection(markdown: string): Promise<void> {
  const text = await currentText()
  const block = `${READ_START}\n${markdown.trim()}\n${READ_END}`
  const section = readSectionOf(text)
  const next = section
    ? `${text.slice(0, section.start)}${block}${text.slice(section.end)}`
    : `${text.trimEnd()}${text.trim() ? '\n\n' : ''}${block}\n`
  await writeFile(FILE, next)
}
