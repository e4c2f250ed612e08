import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import fc from 'fast-check'
import { codePointLength, hasControlChar, hasLoneSurrogate } from './code-points.ts'
import { DeploymentFields, DeploymentInput } from './deployment.ts'
import type { FieldError } from './problem.ts'
import { validateDeployment } from './validate-deployment.ts'

const NOW = new Date('2026-05-01T12:00:00Z')
const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8'
// The literal GitHub Actions placeholder a misconfigured workflow sends.
const UNEXPANDED = ['$', '{{ github.sha }}'].join('')
const VALID = {
  repositoryFullName: 'acme/shop',
  environment: 'production',
  app: 'api',
  version: '1.4.2',
  commitHash: SHA,
}

function errorsOf(body: unknown): FieldError[] {
  const result = validateDeployment(body, NOW)
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.value)}`)
  return result.errors
}

/** The error message for `field` when VALID is given `field: value`, or undefined if accepted. */
function messageFor(field: string, value: unknown): string | undefined {
  const result = validateDeployment({ ...VALID, [field]: value }, NOW)
  if (result.ok) return undefined
  expect(result.errors).toHaveLength(1)
  expect(result.errors[0]?.field).toBe(field)
  return result.errors[0]?.message
}

/** The normalized value of `field` when VALID is given `field: value`; fails if rejected. */
function normalized(field: string, value: unknown): unknown {
  const result = validateDeployment({ ...VALID, [field]: value }, NOW)
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.errors)}`)
  return (result.value as Record<string, unknown>)[field]
}

describe('valid bodies', () => {
  test('minimal body normalizes optional fields to null', () => {
    expect(validateDeployment(VALID, NOW)).toEqual({
      ok: true,
      value: {
        ...VALID,
        description: null,
        author: null,
        deployedAt: null,
        monorepoPath: null,
      },
    })
  })

  test('full body is accepted and trimmed', () => {
    const result = validateDeployment(
      {
        repositoryFullName: ' acme/shop ',
        environment: ' production ',
        app: ' api ',
        version: ' 1.4.2 ',
        commitHash: ` ${SHA.toUpperCase()} `,
        description: '  Hotfix  ',
        author: ' octocat ',
        deployedAt: ' 2026-05-01T11:00:00Z ',
        monorepoPath: ' ./apps/api/ ',
      },
      NOW,
    )
    expect(result).toEqual({
      ok: true,
      value: {
        repositoryFullName: 'acme/shop',
        environment: 'production',
        app: 'api',
        version: '1.4.2',
        commitHash: SHA,
        description: 'Hotfix',
        author: 'octocat',
        deployedAt: '2026-05-01T11:00:00.000Z',
        monorepoPath: 'apps/api',
      },
    })
  })
})

describe('body', () => {
  test.each([[[]], [[VALID]], ['string'], [42], [null], [true], [undefined]])(
    'rejects non-object body %p',
    (body) => {
      expect(errorsOf(body)).toEqual([{ field: 'body', message: 'must be a JSON object' }])
    },
  )

  test('empty object lists every required field', () => {
    expect(errorsOf({})).toEqual(
      ['repositoryFullName', 'environment', 'app', 'version', 'commitHash'].map((field) => ({
        field,
        message: 'is required',
      })),
    )
  })

  test('reports all failing fields at once, one error each', () => {
    const errors = errorsOf({
      repositoryFullName: 'no-slash',
      environment: '   ',
      version: 42,
      commitHash: UNEXPANDED,
      deployedAt: '2026-05-01T12:00:00',
    })
    expect(errors).toEqual([
      { field: 'repositoryFullName', message: 'must look like owner/repo-name' },
      { field: 'environment', message: 'must not be empty' },
      { field: 'app', message: 'is required' },
      { field: 'version', message: 'must be a string' },
      {
        field: 'commitHash',
        message:
          'must be 7 to 70 hexadecimal characters: the full Git commit SHA (was a template variable left unexpanded?)',
      },
      {
        field: 'deployedAt',
        message: 'must be an RFC 3339 date-time with a time zone, for example 2026-05-01T12:00:00Z',
      },
    ])
  })

  test('a field failing several rules gets only one error', () => {
    const errors = errorsOf({ ...VALID, app: ` ${'😀'.repeat(300)}\t\uD800 ` })
    expect(errors).toEqual([{ field: 'app', message: 'must not contain control characters' }])
  })

  test('ignores inherited properties', () => {
    const body = Object.create({ extra: 1, app: 'api' }) as Record<string, unknown>
    Object.assign(body, { ...VALID, app: undefined })
    expect(errorsOf(body)).toEqual([{ field: 'app', message: 'is required' }])
  })
})

describe('types, required and optional', () => {
  const required = ['repositoryFullName', 'environment', 'app', 'version', 'commitHash']
  const optional = ['description', 'author', 'deployedAt', 'monorepoPath']

  test('required fields come from the schema', () => {
    expect<string[]>([...DeploymentInput.required].sort()).toEqual([...required].sort())
  })

  test.each(required)('%s: missing or null is required, blank is empty', (field) => {
    const { [field as keyof typeof VALID]: _, ...rest } = VALID
    expect(errorsOf(rest)).toEqual([{ field, message: 'is required' }])
    expect(messageFor(field, null)).toBe('is required')
    expect(messageFor(field, '')).toBe('must not be empty')
    expect(messageFor(field, ' \u00a0\u3000 ')).toBe('must not be empty')
  })

  test.each(optional)('%s: null, blank or absent means omitted', (field) => {
    expect(normalized(field, null)).toBeNull()
    expect(normalized(field, '')).toBeNull()
    expect(normalized(field, '   ')).toBeNull()
    expect(normalized(field, undefined)).toBeNull()
  })

  test.each([...required, ...optional])('%s: non-string JSON types must be a string', (field) => {
    for (const value of [42, 0, true, false, {}, [], ['a'], { a: 1 }]) {
      expect(messageFor(field, value)).toBe('must be a string')
    }
  })
})

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
    expect(messageFor(field, `${(VALID as Record<string, string>)[field] ?? 'x'}\n`)).toBe(
      'must not contain control characters',
    )
  })

  test.each(fields)('%s rejects lone surrogates', (field) => {
    for (const s of ['\uD800', '\uDC00', 'a\uDBFFb', '\uDE00\uD83D']) {
      expect(messageFor(field, s)).toBe('must not contain unpaired surrogates (invalid Unicode)')
    }
  })

  test('allows valid pairs, RTL marks, zero-width joiners and other Unicode', () => {
    const text = 'déploiement \u200F\u05E9\u05DC\u05D5\u05DD 👩\u200D💻 \uD83D\uDE00'
    for (const field of ['environment', 'app', 'version', 'description', 'author']) {
      expect(normalized(field, text)).toBe(text)
    }
    expect(normalized('repositoryFullName', 'équipe/\u200F👩\u200D💻')).toBe(
      'équipe/\u200F👩\u200D💻',
    )
    expect(normalized('monorepoPath', 'apps/😀 api')).toBe('apps/😀 api')
  })
})

describe('repositoryFullName', () => {
  test.each(['owner/repo', 'group/sub/repo', 'a/b/c/d/e', 'Org.Name/repo_name-2'])(
    'accepts %p',
    (value) => {
      expect(normalized('repositoryFullName', value)).toBe(value)
    },
  )

  test.each([
    'repo',
    'owner/',
    '/repo',
    '/',
    'owner//repo',
    'owner repo/x',
    'owner/re po',
    'owner/repo\u00a0x',
    'owner/repo\u3000x',
  ])('rejects %p', (value) => {
    expect(messageFor('repositoryFullName', value)).toBe('must look like owner/repo-name')
  })
})

describe('commitHash', () => {
  test('lower-cases and accepts 7 to 70 hex characters', () => {
    expect(normalized('commitHash', SHA.toUpperCase())).toBe(SHA)
    expect(normalized('commitHash', 'ABCDEF0')).toBe('abcdef0')
    expect(normalized('commitHash', ` ${SHA} `)).toBe(SHA)
    expect(normalized('commitHash', 'a'.repeat(64))).toBe('a'.repeat(64))
  })

  test.each(['abcdef', UNEXPANDED, '$CI_COMMIT_SHA', 'g'.repeat(40), `${SHA}x`, 'abc def0'])(
    'rejects %p',
    (value) => {
      expect(messageFor('commitHash', value)).toBe(
        'must be 7 to 70 hexadecimal characters: the full Git commit SHA (was a template variable left unexpanded?)',
      )
    },
  )
})

describe('deployedAt', () => {
  const SYNTAX = 'must be an RFC 3339 date-time with a time zone, for example 2026-05-01T12:00:00Z'
  const RANGE =
    'must be a real date and time from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z (in UTC): a day that exists in that month, hour 00-23, minute and second 00-59, offset hours 00-14'
  const FUTURE = 'must not be more than 5 minutes in the future'

  test.each([
    ['2026-05-01T12:00:00Z', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01T14:00:00+02:00', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01T06:00:00-06:00', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01t12:00:00z', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01T12:00:00.123456Z', '2026-05-01T12:00:00.123456Z'],
    ['2026-05-01T12:00:00.1Z', '2026-05-01T12:00:00.100Z'],
    ['2026-05-01T12:00:00.123456789012Z', '2026-05-01T12:00:00.123457Z'],
    ['2026-05-01T12:00:00.0000005Z', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01T12:00:00.0000015Z', '2026-05-01T12:00:00.000002Z'],
    ['2026-05-01T12:00:59.9999999Z', '2026-05-01T12:01:00.000Z'],
    [`2024-01-01T00:00:00.${'9'.repeat(200)}+02:00`, '2023-12-31T22:00:01.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['1970-01-01T00:00:00+14:00', '1969-12-31T10:00:00.000Z'],
    ['1970-01-01T00:00:00-14:59', '1970-01-01T14:59:00.000Z'],
    ['2025-12-31T23:59:59Z', '2025-12-31T23:59:59.000Z'],
  ])('accepts %p as the instant Postgres stores, %p', (value, stored) => {
    expect(normalized('deployedAt', value)).toBe(stored)
  })

  test.each([
    '2026-05-01T12:00:00',
    '2026-05-01',
    '2026-05-01 12:00:00Z',
    '2026-05-01T12:00Z',
    '2026-05-01T12:00:00.Z',
    '2026-05-01T12:00:00+0200',
    '2026-05-01T12:00:00+02',
    '26-05-01T12:00:00Z',
    '+002026-05-01T12:00:00Z',
    '2026-5-1T12:00:00Z',
    '２０２６-05-01T12:00:00Z',
    'yesterday',
  ])('rejects malformed %p', (value) => {
    expect(messageFor('deployedAt', value)).toBe(SYNTAX)
  })

  test.each([
    '0000-01-01T00:00:00Z',
    '2024-02-30T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-13-10T00:00:00Z',
    '2026-01-00T00:00:00Z',
    '2026-01-32T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T00:60:00Z',
    '2016-12-31T23:59:60Z',
    '2026-01-01T00:00:00+15:00',
    '2026-01-01T00:00:00-15:00',
    '2026-01-01T00:00:00+02:60',
  ])('rejects impossible %p', (value) => {
    expect(messageFor('deployedAt', value)).toBe(RANGE)
  })

  test('at most 5 minutes ahead of now', () => {
    expect(messageFor('deployedAt', '2026-05-01T12:04:00Z')).toBeUndefined()
    expect(messageFor('deployedAt', '2026-05-01T12:05:00Z')).toBeUndefined()
    expect(messageFor('deployedAt', '2026-05-01T12:05:00.000000Z')).toBeUndefined()
    expect(messageFor('deployedAt', '2026-05-01T12:04:59.999999Z')).toBeUndefined()
    // Compared as stored: rounded to the microsecond, as Postgres rounds.
    expect(messageFor('deployedAt', '2026-05-01T12:05:00.0000004Z')).toBeUndefined()
    expect(messageFor('deployedAt', '2026-05-01T12:05:00.0000006Z')).toBe(FUTURE)
    expect(messageFor('deployedAt', '2026-05-01T12:05:00.001Z')).toBe(FUTURE)
    expect(messageFor('deployedAt', '2026-05-01T12:06:00Z')).toBe(FUTURE)
    expect(messageFor('deployedAt', '2026-05-01T14:04:00+02:00')).toBeUndefined()
    expect(messageFor('deployedAt', '2026-05-01T14:06:00+02:00')).toBe(FUTURE)
    expect(messageFor('deployedAt', '2026-05-01T08:06:00-04:00')).toBe(FUTURE)
    expect(messageFor('deployedAt', '9999-12-31T23:59:59Z')).toBe(FUTURE)
  })

  test('uses the given now', () => {
    const later = new Date('2026-05-01T12:10:00Z')
    const body = { ...VALID, deployedAt: '2026-05-01T12:06:00Z' }
    expect(validateDeployment(body, NOW).ok).toBe(false)
    expect(validateDeployment(body, later).ok).toBe(true)
  })

  test('accepts any past date', () => {
    expect(normalized('deployedAt', '1000-06-15T08:30:00-03:00')).toBe('1000-06-15T11:30:00.000Z')
  })
})

describe('monorepoPath', () => {
  test.each([
    ['apps/api', 'apps/api'],
    ['./apps/api/', 'apps/api'],
    ['././apps/api', 'apps/api'],
    ['apps/api///', 'apps/api'],
    ['apps/./api', 'apps/./api'],
    ['.hidden/x', '.hidden/x'],
    ['apps/..x', 'apps/..x'],
    ['a\\b', 'a\\b'],
    ['./', null],
    ['././/', null],
    ['.', null],
  ])('%p → %p', (value, expected) => {
    expect(normalized('monorepoPath', value)).toBe(expected)
  })

  test.each(['..', '../x', 'a/../b', 'a/..', './../x', 'a//../b'])('rejects %p', (value) => {
    expect(messageFor('monorepoPath', value)).toBe("must be a relative path without '..' segments")
  })

  test.each(['/abs', '/', ' /abs'])('rejects absolute %p', (value) => {
    expect(messageFor('monorepoPath', value)).toBe(
      "must be a relative path: remove the leading '/'",
    )
  })

  test.each(['a//b', './/a'])('rejects empty segment in %p', (value) => {
    expect(messageFor('monorepoPath', value)).toBe("must not contain empty segments ('//')")
  })
})

describe('unknown fields', () => {
  test('one error per unknown field, with suggestions when close', () => {
    expect(
      errorsOf({
        ...VALID,
        deployed_at: '2026-05-01T12:00:00Z',
        'Monorepo-Path': 'x',
        AUTHOR: 'x',
        comitHash: 'x',
        enviroment: 'x',
        bogus: 1,
      }),
    ).toEqual([
      { field: 'deployed_at', message: 'is not a known field; did you mean "deployedAt"?' },
      { field: 'Monorepo-Path', message: 'is not a known field; did you mean "monorepoPath"?' },
      { field: 'AUTHOR', message: 'is not a known field; did you mean "author"?' },
      { field: 'comitHash', message: 'is not a known field; did you mean "commitHash"?' },
      { field: 'enviroment', message: 'is not a known field; did you mean "environment"?' },
      { field: 'bogus', message: 'is not a known field' },
    ])
  })

  test('prefers the closest known field', () => {
    expect(errorsOf({ ...VALID, apps: 'x' })).toEqual([
      { field: 'apps', message: 'is not a known field; did you mean "app"?' },
    ])
  })

  test('no suggestion when nothing is close', () => {
    expect(errorsOf({ ...VALID, sha: 'x', commit: 'x', x: 'y'.repeat(10_000) })).toEqual([
      { field: 'sha', message: 'is not a known field' },
      { field: 'commit', message: 'is not a known field' },
      { field: 'x', message: 'is not a known field' },
    ])
  })

  test('unknown fields are reported together with field errors', () => {
    expect(errorsOf({ ...VALID, app: '', extra: true })).toEqual([
      { field: 'app', message: 'must not be empty' },
      { field: 'extra', message: 'is not a known field' },
    ])
  })

  test('__proto__ from JSON.parse is an unknown field, not a prototype', () => {
    const body = JSON.parse(`{"__proto__": {"app": "x"}, ${JSON.stringify(VALID).slice(1)}`)
    expect(errorsOf(body)).toEqual([{ field: '__proto__', message: 'is not a known field' }])
  })
})

describe('properties', () => {
  const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c))
  const special = fc.constantFrom('😀', '𝄞', '\u200F', '\u200D', ' ', '\t', '\uD800', '\uDC00')
  const wild = fc.string({ unit: fc.oneof(anyUnit, special), maxLength: 300 })
  const friendlyUnit = fc.constantFrom('a', 'Z', '0', '-', '.', 'é', '😀', '\u200F')
  const friendly = (maxLength: number) => fc.string({ unit: friendlyUnit, minLength: 1, maxLength })
  const pad = (s: fc.Arbitrary<string>) =>
    fc.tuple(fc.constantFrom('', ' ', '\u00a0'), s).map(([p, v]) => `${p}${v}${p}`)

  const byField: Record<keyof typeof DeploymentInput.properties, fc.Arbitrary<string>> = {
    repositoryFullName: pad(
      fc.array(friendly(60), { minLength: 2, maxLength: 5 }).map((s) => s.join('/')),
    ),
    environment: pad(friendly(260)),
    app: pad(friendly(260)),
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
