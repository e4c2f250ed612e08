import { describe, expect, test } from 'bun:test'
import { DeploymentInput } from './deployment.ts'
import { messageFor, normalized } from './testing/deployment-bodies.ts'
import { validDeployment } from './testing/index.ts'

describe('lengths in code points', () => {
  const limited: [string, number, (s: string) => string][] = [
    ['repositoryFullName', 255, (s) => `o/${s.slice(2)}`],
    ['environment', 255, (s) => s],
    ['app', 255, (s) => s],
    ['description', 255, (s) => s],
    ['author', 255, (s) => s],
    ['monorepoPath', 255, (s) => s],
    ['version', 70, (s) => s],
  ]

  test('limits come from the schema', () => {
    const limits = Object.fromEntries(
      Object.entries(DeploymentInput.properties).map(([k, s]) => [k, s.maxLength]),
    )
    expect(limits).toEqual({
      repositoryFullName: 255,
      environment: 255,
      app: 255,
      version: 70,
      commitHash: 70,
      description: 255,
      author: 255,
      deployedAt: undefined,
      monorepoPath: 255,
    })
  })

  describe.each(limited)('%s (max %d)', (field, max, shape) => {
    test('ASCII: max ok, max + 1 rejected', () => {
      expect(messageFor(field, shape('a'.repeat(max)))).toBeUndefined()
      expect(messageFor(field, shape('a'.repeat(max + 1)))).toBe(
        `must be at most ${max} characters (got ${max + 1})`,
      )
    })

    test('astral (2 UTF-16 units, 4 UTF-8 bytes each): max ok, max + 1 rejected', () => {
      // `shape` may replace the first two characters with "o/", so keep them ASCII.
      const astral = (n: number) => `xx${'😀'.repeat(n - 2)}`
      expect(messageFor(field, shape(astral(max)))).toBeUndefined()
      expect(messageFor(field, shape(astral(max + 1)))).toBe(
        `must be at most ${max} characters (got ${max + 1})`,
      )
      expect(messageFor(field, shape(`${'a'.repeat(max - 1)}𝄞`))).toBeUndefined()
    })

    test('limit applies to the trimmed value', () => {
      expect(messageFor(field, `  ${shape('a'.repeat(max))}  `)).toBeUndefined()
    })
  })

  test("'😀'.repeat(255) is a valid app, 256 is not", () => {
    expect('😀'.length).toBe(2)
    expect(normalized('app', '😀'.repeat(255))).toBe('😀'.repeat(255))
    expect(messageFor('app', '😀'.repeat(256))).toBe('must be at most 255 characters (got 256)')
  })

  test('commitHash: 70 hex ok, 71 rejected', () => {
    expect(normalized('commitHash', 'a'.repeat(70))).toBe('a'.repeat(70))
    expect(messageFor('commitHash', 'a'.repeat(71))).toBe('must be at most 70 characters (got 71)')
  })
})

describe('characters', () => {
  const fields = Object.keys(DeploymentInput.properties)

  test.each(fields)('%s rejects control characters, tab and newline included', (field) => {
    for (const c of ['\u0000', '\t', '\n', '\r', '\u001f', '\u007f']) {
      expect(messageFor(field, `a${c}b`)).toBe('must not contain control characters')
    }
    // Checked before trimming: trailing newline is still rejected.
    expect(messageFor(field, `${validDeployment()[field] ?? 'x'}\n`)).toBe(
      'must not contain control characters',
    )
  })

  test.each(fields)('%s rejects lone surrogates', (field) => {
    for (const s of ['\uD800', '\uDC00', 'a\uDBFFb', '\uDE00\uD83D']) {
      expect(messageFor(field, s)).toBe('must not contain unpaired surrogates (invalid Unicode)')
    }
  })

  test('free text allows valid pairs, RTL marks, zero-width joiners and other Unicode', () => {
    const text = 'déploiement \u200F\u05E9\u05DC\u05D5\u05DD 👩\u200D💻 \uD83D\uDE00'
    for (const field of ['version', 'description', 'author']) {
      expect(normalized(field, text)).toBe(text)
    }
    expect(normalized('monorepoPath', 'apps/😀 api')).toBe('apps/😀 api')
  })

  const names = ['repositoryFullName', 'environment', 'app']

  test.each(names)('%s allows any visible script, and is stored in NFC', (field) => {
    const name = (text: string) => (field === 'repositoryFullName' ? `équipe/${text}` : text)
    expect(normalized(field, name('שלום-متجر-😀-𝄞'))).toBe(name('שלום-متجر-😀-𝄞'))
    expect(normalized(field, name('cafe\u0301'))).toBe(name('caf\u00e9'))
  })

  test.each(names)('%s refuses invisible and bidi code points, naming the one found', (field) => {
    const name = (text: string) => (field === 'repositoryFullName' ? `acme/${text}` : text)
    const cases: [string, string][] = [
      ['\u202E', 'U+202E RIGHT-TO-LEFT OVERRIDE: it changes the direction of the text'],
      ['\u200F', 'U+200F RIGHT-TO-LEFT MARK: it changes the direction of the text'],
      ['\u2066', 'U+2066 LEFT-TO-RIGHT ISOLATE: it changes the direction of the text'],
      ['\u061C', 'U+061C ARABIC LETTER MARK: it changes the direction of the text'],
      ['\u200B', 'U+200B ZERO WIDTH SPACE: it is invisible'],
      ['\u200D', 'U+200D ZERO WIDTH JOINER: it is invisible'],
      ['\u00AD', 'U+00AD SOFT HYPHEN: it is invisible'],
      ['\uFE0F', 'U+FE0F: it is invisible'],
      ['\u{E0041}', 'U+E0041: it is invisible'],
      ['\u0085', 'U+0085: it is a control character'],
    ]
    for (const [code, named] of cases) {
      expect(messageFor(field, name(`check${code}out`))).toBe(
        `must not contain ${named}, so two names could look the same; remove it`,
      )
    }
  })
})
