import { expect, test } from 'bun:test'
import { readdir, readFile } from 'node:fs/promises'

// The library must run unchanged on Bun, Node and Deno, so it may use Web APIs only. runtime.ts is
// the one place allowed to reach the host (argv, env, exit), and only through feature detection.
const HOST_ONLY = [/\bBun\./, /\bprocess\./, /\brequire\(/, /\bDeno\./, /from 'bun'/]
const EXEMPT = new Set(['runtime.ts'])
const SRC = new URL('./', import.meta.url)

async function sources(): Promise<string[]> {
  const names = await readdir(SRC)
  return names.filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
}

test('no source file but runtime.ts uses a Bun, Node or Deno global or require()', async () => {
  const offences: string[] = []
  for (const name of await sources()) {
    if (EXEMPT.has(name)) continue
    const text = await readFile(new URL(name, SRC), 'utf8')
    for (const pattern of HOST_ONLY) if (pattern.test(text)) offences.push(`${name}: ${pattern}`)
  }
  expect(offences).toEqual([])
})

test('nothing the library exports imports a node: or bun module', async () => {
  const seen = new Set<string>()
  const offences: string[] = []
  const visit = async (name: string): Promise<void> => {
    if (seen.has(name)) return
    seen.add(name)
    const text = await readFile(new URL(name, SRC), 'utf8')
    for (const [, specifier = ''] of text.matchAll(/from '([^']+)'/g)) {
      if (specifier.startsWith('./')) await visit(specifier.slice(2))
      else if (specifier.startsWith('node:') || specifier === 'bun') {
        offences.push(`${name} imports ${specifier}`)
      }
    }
  }
  await visit('index.ts')
  expect(seen.size).toBeGreaterThan(5)
  expect(offences).toEqual([])
})
