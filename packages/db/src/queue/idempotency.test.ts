import { describe, expect, test } from 'bun:test'
import { validateDeployment } from '@shiplog/schema'
import { COMMIT_SHA, validDeployment } from '@shiplog/schema/testing'
import { fingerprintOf } from './idempotency.ts'

describe('fingerprintOf', () => {
  const body = validDeployment({ version: '1.4.2' })
  function fingerprint(sent: Record<string, unknown>, receivedAt: string): string {
    const result = validateDeployment(sent, new Date(receivedAt))
    if (!result.ok) throw new Error(JSON.stringify(result.errors))
    return fingerprintOf(result.value, result.deployedAtDefaulted).toString('hex')
  }

  test('a retry without deployedAt matches, though its default (the receive time) moved on', () => {
    const first = fingerprint(body, '2026-05-01T12:00:00.000Z')
    expect(fingerprint(body, '2026-05-01T12:03:17.421Z')).toBe(first)
  })

  test('the same request in another spelling matches; another request does not', () => {
    const first = fingerprint(body, '2026-05-01T12:00:00.000Z')
    const respelled = { ...body, version: ' 1.4.2 ', commitHash: COMMIT_SHA.toUpperCase() }
    expect(fingerprint(respelled, '2026-05-01T12:00:01.000Z')).toBe(first)
    expect(fingerprint({ ...body, version: '1.4.3' }, '2026-05-01T12:00:00.000Z')).not.toBe(first)
  })

  test('a deployedAt sent is part of it, even when it equals the default', () => {
    const receivedAt = '2026-05-01T12:00:00.000Z'
    const omitted = fingerprint(body, receivedAt)
    const sent = fingerprint({ ...body, deployedAt: receivedAt }, receivedAt)
    expect(sent).not.toBe(omitted)
    expect(fingerprint({ ...body, deployedAt: '2026-05-01T14:00:00+02:00' }, receivedAt)).toBe(sent)
  })
})
