import { expect, test } from 'bun:test'
import { withIngestPart } from './benchmarks-file.ts'

const FILE = `# Benchmarks

Old ingest figures.

<!-- drain:start -->
Drain table.
<!-- drain:end -->

### Reading the drain figures

Written by hand: why the drain is measured so.

<!-- read:start -->
Read table.
<!-- read:end -->

Also by hand, after the last section.
`

test('a new ingest part replaces the old one and keeps the sections and the prose written by hand', () => {
  const next = withIngestPart(FILE, '# Benchmarks\n\nNew ingest figures.\n')
  expect(next).not.toContain('Old ingest figures.')
  expect(next.startsWith('# Benchmarks\n\nNew ingest figures.\n\n<!-- drain:start -->')).toBe(true)
  expect(next).toContain(FILE.slice(FILE.indexOf('<!-- drain:start -->')))
})

test('a file with no section yet is the ingest part alone', () => {
  expect(withIngestPart('# Old\n', '# Benchmarks\n\nFigures.')).toBe('# Benchmarks\n\nFigures.\n')
  expect(withIngestPart('', '# Benchmarks')).toBe('# Benchmarks\n')
})
