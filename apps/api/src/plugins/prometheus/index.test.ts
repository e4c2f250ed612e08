import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { problems } from '../../kernel/problems.ts'
import { problemDetails } from '../problem/index.ts'
import { noteAnsweredOutside } from '../response-status/index.ts'
import { createApiMetrics, prometheus } from './index.ts'

/** An app with only the Prometheus plugin (and the problem plugin that answers errors). */
function appCounting() {
  const metrics = createApiMetrics()
  const app = new Elysia()
    .use(prometheus(metrics))
    .use(problemDetails(() => {}))
    .get('/items/:id', ({ params }) => {
      if (params.id === 'gone') throw problems.notFound('Gone.')
      return { id: params.id }
    })
  return { app, metrics }
}

/** Each series of the request counter: its labels and its value. */
async function requestsCounted(
  metrics: ReturnType<typeof createApiMetrics>,
): Promise<Record<string, string | number>[]> {
  const { values } = await metrics.requests.get()
  return values.map(({ labels, value }) => ({ ...labels, value }))
}

// The counter is bumped after the response is sent: wait for the hook to have run.
async function settled(metrics: ReturnType<typeof createApiMetrics>, total: number) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const counted = (await requestsCounted(metrics)).reduce(
      (sum, row) => sum + Number(row.value),
      0,
    )
    if (counted >= total) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`fewer than ${total} requests were counted`)
}

describe('prometheus', () => {
  test('counts requests by method, route pattern (not the raw path) and status sent', async () => {
    const { app, metrics } = appCounting()
    for (const path of ['/items/1', '/items/2', '/items/gone', '/nowhere']) {
      await app.handle(new Request(`http://shiplog.test${path}`))
    }
    await settled(metrics, 4)
    expect(await requestsCounted(metrics)).toEqual(
      expect.arrayContaining([
        { method: 'GET', route: '/items/:id', status: '200', value: 2 },
        { method: 'GET', route: '/items/:id', status: '404', value: 1 },
        { method: 'GET', route: 'unmatched', status: '404', value: 1 },
      ]),
    )
    const duration = await metrics.duration.get()
    const count = duration.values.find(
      (sample) => sample.metricName?.endsWith('_count') && sample.labels.route === '/items/:id',
    )
    expect(count?.value).toBe(3)
  })

  test('counts the status the client got when the answer came from outside the app', async () => {
    const { app, metrics } = appCounting()
    const request = new Request('http://shiplog.test/items/1')
    noteAnsweredOutside(request, 503)
    await app.handle(request)
    await settled(metrics, 1)
    expect(await requestsCounted(metrics)).toEqual([
      { method: 'GET', route: '/items/:id', status: '503', value: 1 },
    ])
  })
})
