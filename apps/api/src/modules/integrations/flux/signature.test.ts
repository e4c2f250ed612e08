import { expect, test } from 'bun:test'
import { createSecretKey } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { verifyFluxProof } from './signature.ts'

// notification-controller's own test vector (internal/notifier/forwarder_test.go: its key, its
// event's bytes, the X-Signature it expects): packages/integrations/fixtures/flux/SOURCE.md.
const SIGNED = join(
  import.meta.dir,
  '../../../../../../packages/integrations/fixtures/flux/events/signed',
)
const vector = JSON.parse(
  readFileSync(join(SIGNED, 'forwarder-test-gitrepository.signature.json'), 'utf8'),
)
const body = new Uint8Array(readFileSync(join(SIGNED, vector.bodyFile)))
const key = createSecretKey(Buffer.from(vector.hmacKey, 'utf8'))
const other = createSecretKey(Buffer.from('another secret', 'utf8'))

test('the signature notification-controller computes for its test event verifies; another key or body does not', () => {
  const signature = vector.headers['X-Signature'] as string
  expect(verifyFluxProof([key], body, { signature, bearer: null })).toBe(true)
  expect(verifyFluxProof([other, key], body, { signature, bearer: null })).toBe(true)
  expect(verifyFluxProof([other], body, { signature, bearer: null })).toBe(false)
  const changed = new Uint8Array(body)
  changed.set([(body.at(-2) as number) ^ 1], changed.length - 2)
  expect(verifyFluxProof([key], changed, { signature, bearer: null })).toBe(false)
  expect(
    verifyFluxProof([key], body, {
      signature: signature.replace('sha256=', 'sha1='),
      bearer: null,
    }),
  ).toBe(false)
  expect(verifyFluxProof([key], body, { signature: null, bearer: null })).toBe(false)
})

test('a generic Provider’s bearer is the secret itself; anything else is refused', () => {
  expect(verifyFluxProof([key], body, { signature: null, bearer: vector.hmacKey })).toBe(true)
  expect(verifyFluxProof([key], body, { signature: null, bearer: `${vector.hmacKey}x` })).toBe(
    false,
  )
  expect(verifyFluxProof([key], body, { signature: 'sha256=00', bearer: 'nope' })).toBe(false)
})
