import { expect, test } from 'bun:test'
import { sourceOfRequest } from './source.ts'

test("Shiplog's client is cli, with or without a version or comment, in any case", () => {
  for (const userAgent of [
    'shiplog-client',
    'shiplog-client/1.4.0',
    'Shiplog-Client/2 (node 24)',
    ' shiplog-client',
  ]) {
    expect({ userAgent, source: sourceOfRequest(userAgent) }).toEqual({ userAgent, source: 'cli' })
  }
})

test('anything else is api: none, curl, a runtime, a name that only starts alike', () => {
  for (const userAgent of [
    null,
    '',
    'curl/8.5.0',
    'Bun/1.4.5',
    'node',
    'shiplog-clientele/1.0',
    'my-tool shiplog-client/1.0',
  ]) {
    expect({ userAgent, source: sourceOfRequest(userAgent) }).toEqual({ userAgent, source: 'api' })
  }
})
