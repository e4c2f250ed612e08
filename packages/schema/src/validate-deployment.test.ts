import { describe, expect, test } from 'bun:test'
import { DeploymentInput } from './deployment.ts'
import { errorsOf, messageFor, NOW, normalized } from './testing/deployment-bodies.ts'
import { COMMIT_SHA, UNEXPANDED_SHA, validDeployment } from './testing/index.ts'
import { validateDeployment } from './validate-deployment.ts'

// Formats of single fields: validate-deployment-formats.test.ts; lengths and characters:
// validate-deployment-text.test.ts; generated bodies: validate-deployment-properties.test.ts.

describe('valid bodies', () => {
  test('minimal body normalizes optional fields to null, and deployedAt to now', () => {
    // The fixture is typed loosely (tests override fields with any value): compare as unknown.
    expect<unknown>(validateDeployment(validDeployment(), NOW)).toEqual({
      ok: true,
      value: {
        ...validDeployment(),
        description: null,
        author: null,
        deployedAt: '2026-05-01T12:00:00.000Z',
        monorepoPath: null,
      },
      deployedAtDefaulted: true,
    })
  })

  test('full body is accepted and trimmed', () => {
    const result = validateDeployment(
      {
        repositoryFullName: ' acme/shop ',
        environment: ' production ',
        app: ' api ',
        version: ' 1.4.2 ',
        commitHash: ` ${COMMIT_SHA.toUpperCase()} `,
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
        commitHash: COMMIT_SHA,
        description: 'Hotfix',
        author: 'octocat',
        deployedAt: '2026-05-01T11:00:00.000Z',
        monorepoPath: 'apps/api',
      },
      deployedAtDefaulted: false,
    })
  })
})

describe('body', () => {
  test.each([[[]], [[validDeployment()]], ['string'], [42], [null], [true], [undefined]])(
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
      commitHash: UNEXPANDED_SHA,
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
    const errors = errorsOf(validDeployment({ app: ` ${'😀'.repeat(300)}\t\uD800 ` }))
    expect(errors).toEqual([{ field: 'app', message: 'must not contain control characters' }])
  })

  test('ignores inherited properties', () => {
    const body = Object.create({ extra: 1, app: 'api' }) as Record<string, unknown>
    Object.assign(body, validDeployment({ app: undefined }))
    expect(errorsOf(body)).toEqual([{ field: 'app', message: 'is required' }])
  })
})

describe('types, required and optional', () => {
  const required = ['repositoryFullName', 'environment', 'app', 'version', 'commitHash']
  const optional = ['description', 'author', 'deployedAt', 'monorepoPath']
  const withoutDefault = optional.filter((field) => field !== 'deployedAt')

  test('required fields come from the schema', () => {
    expect<string[]>([...DeploymentInput.required].sort()).toEqual([...required].sort())
  })

  test.each(required)('%s: missing or null is required, blank is empty', (field) => {
    const { [field]: _, ...rest } = validDeployment()
    expect(errorsOf(rest)).toEqual([{ field, message: 'is required' }])
    expect(messageFor(field, null)).toBe('is required')
    expect(messageFor(field, '')).toBe('must not be empty')
    expect(messageFor(field, ' \u00a0\u3000 ')).toBe('must not be empty')
  })

  test.each(withoutDefault)('%s: null, blank or absent means omitted', (field) => {
    expect(normalized(field, null)).toBeNull()
    expect(normalized(field, '')).toBeNull()
    expect(normalized(field, '   ')).toBeNull()
    expect(normalized(field, undefined)).toBeNull()
  })

  test('deployedAt: null, blank or absent means now, normalised like one sent', () => {
    const later = new Date('2026-05-01T12:34:56.789Z')
    for (const value of [null, '', '   ', undefined]) {
      const result = validateDeployment(validDeployment({ deployedAt: value }), later)
      expect(result).toMatchObject({
        ok: true,
        value: { deployedAt: '2026-05-01T12:34:56.789Z' },
        deployedAtDefaulted: true,
      })
    }
  })

  test.each([...required, ...optional])('%s: non-string JSON types must be a string', (field) => {
    for (const value of [42, 0, true, false, {}, [], ['a'], { a: 1 }]) {
      expect(messageFor(field, value)).toBe('must be a string')
    }
  })
})

describe('unknown fields', () => {
  test('one error per unknown field, with suggestions when close', () => {
    expect(
      errorsOf({
        ...validDeployment(),
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
    expect(errorsOf(validDeployment({ apps: 'x' }))).toEqual([
      { field: 'apps', message: 'is not a known field; did you mean "app"?' },
    ])
  })

  test('no suggestion when nothing is close', () => {
    expect(errorsOf(validDeployment({ sha: 'x', commit: 'x', x: 'y'.repeat(10_000) }))).toEqual([
      { field: 'sha', message: 'is not a known field' },
      { field: 'commit', message: 'is not a known field' },
      { field: 'x', message: 'is not a known field' },
    ])
  })

  test('unknown fields are reported together with field errors', () => {
    expect(errorsOf(validDeployment({ app: '', extra: true }))).toEqual([
      { field: 'app', message: 'must not be empty' },
      { field: 'extra', message: 'is not a known field' },
    ])
  })

  test('__proto__ from JSON.parse is an unknown field, not a prototype', () => {
    const body = JSON.parse(
      `{"__proto__": {"app": "x"}, ${JSON.stringify(validDeployment()).slice(1)}`,
    )
    expect(errorsOf(body)).toEqual([{ field: '__proto__', message: 'is not a known field' }])
  })
})
