import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { safeRedirectTarget } from './safe-redirect.ts'

describe('safeRedirectTarget', () => {
  test('keeps a page of the dashboard, with its query', () => {
    expect(safeRedirectTarget('/ui')).toBe('/ui')
    expect(safeRedirectTarget('/ui/deployments?app=api&status=queued')).toBe(
      '/ui/deployments?app=api&status=queued',
    )
    expect(safeRedirectTarget('/ui/dora?app=café')).toBe('/ui/dora?app=caf%C3%A9')
    expect(safeRedirectTarget('/ui/\u2028')).toBe('/ui/%E2%80%A8')
  })

  test('sends anything else to /ui', () => {
    for (const target of [
      null,
      undefined,
      '',
      '/',
      '/uix',
      '/ui\r\n',
      '//evil.example',
      '/\\evil.example',
      '/ui/..//evil.example',
      '/ui/../evil',
      'javascript:alert(1)',
      'https://evil.example/ui',
      '/healthz',
    ]) {
      expect({ target, to: safeRedirectTarget(target) }).toEqual({ target, to: '/ui' })
    }
  })

  test('property: always a path under /ui that a Location header can carry', () => {
    const anything = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }).map((rest) => `/ui${rest}`),
      fc.string({ unit: 'binary', maxLength: 30 }).map((rest) => `/ui/${rest}`),
    )
    fc.assert(
      fc.property(anything, (target) => {
        const location = safeRedirectTarget(target)
        expect(location).toMatch(/^\/ui(\/|\?|$)/)
        expect(location.startsWith('//')).toBe(false)
        expect(new Headers({ location }).get('location')).toBe(location)
      }),
      { numRuns: 2000 },
    )
  })
})
