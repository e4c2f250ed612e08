import { expect, test } from 'bun:test'
import { sign, verify } from '@octokit/webhooks-methods'
import fc from 'fast-check'
import { verifyGitHubSignature } from './signature.ts'

// Against the reference: @octokit/webhooks-methods signs and verifies as GitHub does.

const bytes = (text: string) => new TextEncoder().encode(text)

test('a body GitHub signed verifies; another secret, another body or another scheme does not', async () => {
  const body = '{"zen":"Keep it logically awesome.","hook_id":1}'
  const signature = await sign('hook-secret', body)
  expect(verifyGitHubSignature(['hook-secret'], bytes(body), signature)).toBe(true)
  expect(verifyGitHubSignature(['other'], bytes(body), signature)).toBe(false)
  expect(verifyGitHubSignature(['hook-secret'], bytes(`${body} `), signature)).toBe(false)
  for (const header of [
    null,
    '',
    signature.replace('sha256=', 'sha1='),
    signature.toUpperCase(),
    `${signature}0`,
  ]) {
    expect({
      header,
      ok: verifyGitHubSignature(['hook-secret'], bytes(body), header),
    }).toEqual({
      header,
      ok: false,
    })
  }
})

test('during a rotation the previous secret still verifies', async () => {
  const body = '{"action":"created"}'
  const signature = await sign('previous', body)
  expect(verifyGitHubSignature(['current', 'previous'], bytes(body), signature)).toBe(true)
})

test('property: it agrees with the reference verifier on any body, secret and header', async () => {
  await fc.assert(
    fc.asyncProperty(
      // GitHub never sends an empty body, and the reference refuses to sign one.
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }),
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.boolean(),
      fc.string({ maxLength: 80 }),
      async (body, secret, signed, forged) => {
        const header = signed ? await sign(secret, body) : `sha256=${forged}`
        const reference = await verify(secret, body, header).catch(() => false)
        expect(verifyGitHubSignature([secret], bytes(body), header)).toBe(reference)
      },
    ),
    { numRuns: 200 },
  )
})
