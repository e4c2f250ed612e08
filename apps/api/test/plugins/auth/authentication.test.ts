// Who may call the API: a key sent as a Bearer token, known, not revoked.
import { describe, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../../support/harness.ts'

const h = harnessPerFile()

describe('authentication', () => {
  test('a missing key is 401 with a problem body and a Bearer challenge', async () => {
    const response = await h.post(validDeployment(), { key: null })
    expect(response.status).toBe(401)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
    expect(response.headers.get('www-authenticate')).toContain('Bearer')
    const body = await response.json()
    expect(body).toMatchObject({
      status: 401,
      type: '/problems/unauthorized',
      title: 'Unauthorized',
    })
    expect(body.detail).toContain('Authorization: Bearer')
  })

  test.each([
    ['an unknown key', `shiplog_${'A'.repeat(43)}`],
    ['a malformed key', 'not-a-key'],
    ['a key of the wrong length', 'shiplog_short'],
  ])('%s is 401 and never echoed back', async (_, key) => {
    const response = await h.post(validDeployment(), { key })
    expect(response.status).toBe(401)
    expect(await response.text()).not.toContain(key)
  })

  test('a scheme other than Bearer is 401', async () => {
    const response = await h.post(validDeployment(), {
      key: null,
      headers: { authorization: `Basic ${h.defaultKey}` },
    })
    expect(response.status).toBe(401)
  })

  test('a revoked key is refused within 5 seconds', async () => {
    const { key, id } = await h.createKey()
    expect((await h.post(validDeployment({ version: 'before-revoke' }), { key })).status).toBe(202)
    await h.sql`update api_keys set revoked_at = now() where id = ${id}`
    const revokedAt = Date.now()
    let status = 202
    while (status !== 401 && Date.now() - revokedAt < 5_000) {
      status = (await h.post(validDeployment({ version: 'after-revoke' }), { key })).status
      if (status !== 401) await Bun.sleep(100)
    }
    expect(status).toBe(401)
    expect(Date.now() - revokedAt).toBeLessThan(5_000)
  })
})
