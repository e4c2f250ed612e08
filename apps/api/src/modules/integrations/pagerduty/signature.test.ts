import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { hmacKey } from '../github/signature.ts'
import { verifyPagerDutySignature } from './signature.ts'

// PagerDuty's published verification example (go-pagerduty's webhookv3 test, as
// packages/integrations/fixtures/pagerduty/SOURCE.md names it): its secret, body and header.
const example = JSON.parse(
  readFileSync(
    new URL(
      '../../../../../../packages/integrations/fixtures/pagerduty/signature-example.json',
      import.meta.url,
    ),
    'utf8',
  ),
) as { secret: string; body: string; signatures: string }
const bytes = (text: string) => new TextEncoder().encode(text)

test('the published example verifies; another secret, another body or no v1 does not', () => {
  const key = hmacKey(example.secret)
  expect(verifyPagerDutySignature([key], bytes(example.body), example.signatures)).toBe(true)
  expect(
    verifyPagerDutySignature([hmacKey('another')], bytes(example.body), example.signatures),
  ).toBe(false)
  expect(verifyPagerDutySignature([key], bytes(`${example.body} `), example.signatures)).toBe(false)
  expect(
    verifyPagerDutySignature([key], bytes(example.body), example.signatures.replace('v1=', 'v2=')),
  ).toBe(false)
  expect(verifyPagerDutySignature([key], bytes(example.body), null)).toBe(false)
})

test('during PagerDuty’s rotation the header lists several: any v1 match passes, other versions are skipped', () => {
  const key = hmacKey(example.secret)
  const hex = example.signatures.replace('v1=', '')
  for (const header of [
    `v1=${'0'.repeat(64)},${example.signatures}`,
    `v2=${hex}, ${example.signatures}`,
    `${example.signatures},v1=not-hex`,
  ]) {
    expect(verifyPagerDutySignature([key], bytes(example.body), header)).toBe(true)
  }
  expect(verifyPagerDutySignature([key], bytes(example.body), `v1=${'0'.repeat(64)}`)).toBe(false)
})
