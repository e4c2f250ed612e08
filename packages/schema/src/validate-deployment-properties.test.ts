import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import fc from 'fast-check'
import { codePointLength, hasControlChar, hasLoneSurrogate } from './code-points.ts'
import { DeploymentFields, DeploymentInput } from './deployment.ts'
import { refusedCodePoint } from './names.ts'
import { NOW } from './testing/deployment-bodies.ts'
import { validateDeployment } from './validate-deployment.ts'

describe('properties', () => {
  const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c))
  const special = fc.constantFrom('😀', '𝄞', '\u200F', '\u200D', ' ', '\t', '\uD800', '\uDC00')
  const wild = fc.string({ unit: fc.oneof(anyUnit, special), maxLength: 300 })
  const friendlyUnit = fc.constantFrom('a', 'Z', '0', '-', '.', 'é', '😀', '\u200F')
  const friendly = (maxLength: number) => fc.string({ unit: friendlyUnit, minLength: 1, maxLength })
  // Names refuse invisible and bidi code points, and are stored in NFC: é arrives both ways.
  const nameUnit = fc.constantFrom('a', 'Z', '0', '-', '.', 'é', 'e\u0301', '😀')
  const friendlyName = (maxLength: number) => fc.string({ unit: nameUnit, minLength: 1, maxLength })
  const pad = (s: fc.Arbitrary<string>) =>
    fc.tuple(fc.constantFrom('', ' ', '\u00a0'), s).map(([p, v]) => `${p}${v}${p}`)

  const byField: Record<keyof typeof DeploymentInput.properties, fc.Arbitrary<string>> = {
    repositoryFullName: pad(
      fc.array(friendlyName(60), { minLength: 2, maxLength: 5 }).map((s) => s.join('/')),
    ),
    environment: pad(friendlyName(260)),
    app: pad(friendlyName(260)),
    version: pad(friendly(75)),
    commitHash: pad(fc.stringMatching(/^[0-9a-fA-F]{7,72}$/)),
    description: pad(friendly(260)),
    author: pad(friendly(260)),
    deployedAt: fc
      .date({ min: new Date('0001-01-01T00:00:00Z'), max: NOW, noInvalidDate: true })
      .map((d) => d.toISOString()),
    monorepoPath: pad(
      fc
        .array(fc.oneof(friendly(20), fc.constantFrom('.', '..', '')), { maxLength: 6 })
        .map((s) => s.join('/')),
    ),
  }
  const field = (good: fc.Arbitrary<string>) =>
    fc.oneof(
      { weight: 8, arbitrary: good },
      { weight: 1, arbitrary: wild },
      { weight: 1, arbitrary: fc.jsonValue() },
    )
  const bodies = fc.record(
    Object.fromEntries(Object.entries(byField).map(([k, a]) => [k, field(a)])),
    { requiredKeys: [] },
  )

  function checkOkValue(value: Record<string, unknown>) {
    expect(Value.Check(DeploymentFields, value)).toBe(true)
    for (const [name, schema] of Object.entries(DeploymentInput.properties)) {
      const v = value[name]
      if (v === null) continue
      if (typeof v !== 'string') throw new Error(`${name} is not a string`)
      expect(v.length).toBeGreaterThan(0)
      expect(v).toBe(v.trim())
      expect(codePointLength(v)).toBeLessThanOrEqual(schema.maxLength ?? Number.POSITIVE_INFINITY)
      expect(hasControlChar(v)).toBe(false)
      expect(hasLoneSurrogate(v)).toBe(false)
      if ((schema as { format?: string }).format === 'name') {
        expect(refusedCodePoint(v)).toBeUndefined()
        expect(v).toBe(v.normalize('NFC'))
      }
    }
  }

  test('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const result = validateDeployment(body, NOW)
        if (result.ok) checkOkValue(result.value)
        else expect(result.errors.length).toBeGreaterThan(0)
      }),
    )
  })

  test('never throws on deployment-shaped objects; ok values respect every limit', () => {
    let okCount = 0
    fc.assert(
      fc.property(
        bodies,
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 2 }),
        (b, extra) => {
          const result = validateDeployment({ ...extra, ...b }, NOW)
          if (result.ok) {
            okCount++
            checkOkValue(result.value)
          } else {
            const fields = result.errors.map((e) => e.field)
            expect(new Set(fields).size).toBe(fields.length)
          }
        },
      ),
      { numRuns: 2000 },
    )
    expect(okCount).toBeGreaterThan(0)
  })
})
