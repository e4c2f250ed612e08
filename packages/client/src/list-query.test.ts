import { expect, test } from 'bun:test'
import { listQueryParams } from './list-query.ts'

test('only the filters that are set are sent; dates go as RFC 3339', () => {
  const params = listQueryParams({
    app: 'checkout',
    environment: undefined,
    limit: 10,
    since: new Date('2026-05-01T00:00:00Z'),
    until: '2026-06-01T00:00:00Z',
  })
  expect(params.toString()).toBe(
    'app=checkout&limit=10&since=2026-05-01T00%3A00%3A00.000Z&until=2026-06-01T00%3A00%3A00Z',
  )
  expect(listQueryParams({}).toString()).toBe('')
})
