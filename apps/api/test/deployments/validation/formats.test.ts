/**
 * Validation of `POST /v1/deployments`, end to end through HTTP: the format rules of
 * decisions.md §2 (commit hash, repository name, deployment time, monorepo path).
 */
import { describe, expect, test } from 'bun:test'
import { UNEXPANDED_SHA } from '@shiplog/schema/testing'
import { type Field, validationSuite } from '../../support/validation-suite.ts'

const v = validationSuite()
const { body, unique, acceptAndRecord, expectFieldError, expectDeployedWhenReceived } = v

/**
 * A field's table cases: each accepted value (`[title, sent, stored]`) is recorded as `stored`, or
 * as sent when the row names none; each rejected one (`[title, sent]`) is a 422 naming the field.
 */
function fieldCases(
  field: Field,
  accepted: string[][],
  rejected: string[][],
  titled = '%s is accepted',
) {
  test.each(accepted)(titled, async (_, sent, stored = sent) => {
    const row = await acceptAndRecord(body({ [field]: sent }))
    expect(row[field]).toBe(stored)
  })
  test.each(rejected)('%s is rejected', async (_, sent) => {
    await expectFieldError(await v.h.post(body({ [field]: sent })), field)
  })
}

const COMMIT_HASHES_ACCEPTED = [
  ['7 hexadecimal characters', 'abcdef1'],
  ['a full 40-character SHA-1', 'c3499c2729730a7f807efb8676a92dcb6f8a3f8f'],
  ['a 64-character SHA-256', 'e'.repeat(64)],
]
const COMMIT_HASHES_REJECTED = [
  ['6 characters', 'abcdef'],
  ['a non-hex letter', 'g94a8fe5ccb19ba61c4c0873d391e987982fbbd3'],
  ['an unexpanded GitHub Actions template', UNEXPANDED_SHA],
  ['an inner space', 'a94a8fe 5ccb19ba'],
  ['a 0x prefix', '0xa94a8fe5cc'],
  ['a branch name', 'main'],
]

describe('commitHash', () => {
  fieldCases('commitHash', COMMIT_HASHES_ACCEPTED, COMMIT_HASHES_REJECTED)

  test('upper case is accepted and stored lower-case', async () => {
    const row = await acceptAndRecord(
      body({ commitHash: 'A94A8FE5CCB19BA61C4C0873D391E987982FBBD3' }),
    )
    expect(row.commitHash).toBe('a94a8fe5ccb19ba61c4c0873d391e987982fbbd3')
  })
})

const REPOSITORIES_ACCEPTED = [
  ['owner/repo', 'owner-validation/repo'],
  ['nested groups', 'group-validation/sub/repo'],
]
const REPOSITORIES_REJECTED = [
  ['no slash', 'owner'],
  ['an empty name', 'owner/'],
  ['an empty owner', '/repo'],
  ['a space before the slash', 'owner /repo'],
  ['a space inside the name', 'owner/my repo'],
  ['an empty middle segment', 'owner//repo'],
  ['only a slash', '/'],
]

describe('repositoryFullName', () => {
  const titled = '%s is accepted and stored as sent'
  fieldCases('repositoryFullName', REPOSITORIES_ACCEPTED, REPOSITORIES_REJECTED, titled)
})

const INSTANTS_ACCEPTED = [
  ['a Z time zone', '2024-05-01T12:00:00Z', '2024-05-01T12:00:00.000000Z'],
  ['a +02:00 offset', '2024-05-01T14:00:00+02:00', '2024-05-01T12:00:00.000000Z'],
  ['a -05:30 offset', '2024-05-01T06:30:00-05:30', '2024-05-01T12:00:00.000000Z'],
  ['fractional seconds', '2024-05-01T12:00:00.123456Z', '2024-05-01T12:00:00.123456Z'],
  ['a leap day', '2024-02-29T08:00:00Z', '2024-02-29T08:00:00.000000Z'],
  ['backfilled history from 1999', '1999-12-31T23:59:59Z', '1999-12-31T23:59:59.000000Z'],
  [
    'lower-case t and z (RFC 3339 allows them)',
    '2024-05-01t12:00:00z',
    '2024-05-01T12:00:00.000000Z',
  ],
  ['the first year, 0001', '0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000000Z'],
]
const BACKFILLED = [
  ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ['0099-06-01T00:00:00Z', '0099-06-01T00:00:00.000Z'],
  ['0001-01-01T14:00:00+14:00', '0001-01-01T00:00:00.000Z'],
  ['2026-06-01T10:00:00.123456Z', '2026-06-01T10:00:00.123456Z'],
]
const INSTANTS_REJECTED = [
  ['no time zone', '2024-05-01T12:00:00'],
  ['a date only', '2024-05-01'],
  ['February 30th', '2024-02-30T00:00:00Z'],
  ['February 29th of a non-leap year', '2023-02-29T00:00:00Z'],
  ['hour 24', '2024-05-01T24:00:00Z'],
  ['minute 60', '2024-05-01T12:60:00Z'],
  ['month 13', '2024-13-01T12:00:00Z'],
  ['year 0000', '0000-06-01T12:00:00Z'],
  ['a one-digit offset hour', '2024-05-01T12:00:00+2:00'],
  ['epoch seconds', '1714564800'],
  ['a word', 'yesterday'],
]

describe('deployedAt', () => {
  const titled = '%s is accepted and stored as that instant'
  fieldCases('deployedAt', INSTANTS_ACCEPTED, INSTANTS_REJECTED, titled)

  test('0001-01-01T00:00:00+14:00 (1 BC in UTC) is rejected: the earliest instant is year 1 in UTC', async () => {
    const response = await v.h.post(body({ deployedAt: '0001-01-01T00:00:00+14:00' }))
    expect(response.status).toBe(422)
    const problem = await response.json()
    expect(problem.errors).toEqual([
      { field: 'deployedAt', message: expect.stringContaining('from 0001-01-01T00:00:00Z') },
    ])
  })

  test.each(BACKFILLED)(
    'backfilled %s reads back through GET /v1/deployments as the same instant',
    async (sent, listed) => {
      const app = unique('backfill')
      await acceptAndRecord(body({ app, deployedAt: sent }))
      const response = await v.h.get(`/v1/deployments?app=${encodeURIComponent(app)}`)
      const text = await response.text()
      expect({ status: response.status, body: text }).toEqual({
        status: 200,
        body: expect.any(String),
      })
      const page = JSON.parse(text) as { data: { deployedAt: string }[] }
      expect(page.data.map((d) => d.deployedAt)).toEqual([listed])
    },
  )

  test('4 minutes in the future (clock skew) is accepted', async () => {
    const ahead = new Date(Date.now() + 4 * 60_000).toISOString()
    const row = await acceptAndRecord(body({ deployedAt: ahead }))
    expect(row.deployedAt).toBe(ahead.replace('Z', '000Z'))
  })

  test('omitted, it defaults to the time the request was received', async () => {
    await expectDeployedWhenReceived(body())
  })

  test('10 minutes in the future is rejected', async () => {
    const ahead = new Date(Date.now() + 10 * 60_000).toISOString()
    await expectFieldError(await v.h.post(body({ deployedAt: ahead })), 'deployedAt', /future/)
  })
})

const PATHS_ACCEPTED = [
  ['a ./ prefix and trailing / are stripped', './apps/api/', 'apps/api'],
  ['a plain relative path is kept', 'services/billing', 'services/billing'],
  ['a segment that merely starts with dots is allowed', 'tools/..config', 'tools/..config'],
]
const PATHS_REJECTED = [
  ['a leading ../', '../x'],
  ['a .. segment in the middle', 'a/../b'],
  ['a trailing .. segment', 'a/..'],
  ['.. alone', '..'],
  ['an absolute path', '/abs'],
]

describe('monorepoPath', () => {
  fieldCases('monorepoPath', PATHS_ACCEPTED, PATHS_REJECTED, '%s')
})

// Every row of the tables above is one request that must be accepted or rejected.
v.reconcile({
  accepted:
    COMMIT_HASHES_ACCEPTED.length +
    REPOSITORIES_ACCEPTED.length +
    INSTANTS_ACCEPTED.length +
    BACKFILLED.length +
    PATHS_ACCEPTED.length,
  rejected:
    COMMIT_HASHES_REJECTED.length +
    REPOSITORIES_REJECTED.length +
    INSTANTS_REJECTED.length +
    PATHS_REJECTED.length,
})
