// PagerDuty signs a webhook (v3) with its subscription's secret: `X-PagerDuty-Signature` is a
// comma-separated list of `v1=<hex HMAC-SHA256 of the raw body>`, several while PagerDuty rotates
// its secret. Any v1 signature that matches proves the delivery; other versions are skipped, as
// PagerDuty's verification guide says. Checked on the bytes as received, in constant time.

import { createHmac, type KeyObject, timingSafeEqual } from 'node:crypto'

const V1 = /^v1=([0-9a-f]{64})$/i

/** Whether the header holds a v1 signature of `body` with one of `keys`. */
export function verifyPagerDutySignature(
  keys: KeyObject[],
  body: Uint8Array,
  header: string | null,
): boolean {
  const signatures = (header ?? '')
    .split(',')
    .map((part) => V1.exec(part.trim())?.[1])
    .filter((hex): hex is string => hex !== undefined)
    .map((hex) => Buffer.from(hex, 'hex'))
  let proved = false
  // Every key against every signature, so the time taken does not say which one matched.
  for (const key of keys) {
    const expected = createHmac('sha256', key).update(body).digest()
    for (const signature of signatures) {
      if (timingSafeEqual(expected, signature)) proved = true
    }
  }
  return proved
}
