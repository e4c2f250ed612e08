import { afterAll, beforeAll, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

// Requests as a raw socket sends them, framing and all: what Shiplog answers with a problem body,
// and what the runtime's HTTP parser refuses before Shiplog sees it (docs/api.md, "Answers
// without a problem body"): a status line, Connection: close, no body.

const h = harnessPerFile()
let key: string
let port: number
let stop: () => Promise<void>
beforeAll(async () => {
  key = (await h.createKey({ workspace: 'framing', rateLimitPerMinute: 1_000_000 })).key
  ;({ port, stop } = await h.serve())
})
afterAll(() => stop?.())

interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Writes `request` as is and reads the first answer until the server closes the connection. */
function sendRaw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let received = ''
    const socket = connect(port, '127.0.0.1', () => socket.write(request))
    socket.setTimeout(10_000, () =>
      socket.destroy(new Error(`no answer to ${request.slice(0, 60)}`)),
    )
    socket.on('data', (chunk) => {
      received += chunk
    })
    socket.on('error', reject)
    socket.on('close', () => {
      const [head = '', ...rest] = received.split('\r\n\r\n')
      const [statusLine = '', ...headerLines] = head.split('\r\n')
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const colon = line.indexOf(':')
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
        }),
      )
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') })
    })
  })
}

const request = (head: string, body = '') =>
  `${head}\r\nHost: shiplog.test\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n${body}`

const problemType = (answer: RawAnswer) => {
  const length = Number(answer.headers['content-length'])
  return JSON.parse(answer.body.slice(0, length)).type
}

test('a Content-Length of 99,999,999,999 is a 413 problem, before the body is read', async () => {
  const answer = await sendRaw(
    request(
      'POST /v1/deployments HTTP/1.1',
      'Content-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{"app":',
    ),
  )
  expect(answer.status).toBe(413)
  expect(answer.headers['content-type']).toBe('application/problem+json')
  expect(problemType(answer)).toBe('/problems/body-too-large')
})

test('a known path asked with another method is a 405 problem with Allow; an unknown one a 404', async () => {
  for (const [method, path, allow] of [
    ['DELETE', '/v1/applications', 'GET'],
    ['PATCH', '/v1/deployments', 'GET, POST'],
    ['POST', '/v1/incidents/0b7f6c52-8d3e-4a4b-9e55-1f3f3f3f3f3f/commits', undefined],
    ['GET', '/hooks/0b7f6c52-8d3e-4a4b-9e55-1f3f3f3f3f3f', 'POST'],
    ['PUT', '/healthz', 'GET'],
  ] as const) {
    const answer = await sendRaw(request(`${method} ${path} HTTP/1.1`, 'Content-Length: 0\r\n\r\n'))
    expect({ method, path, status: answer.status, allow: answer.headers.allow }).toEqual({
      method,
      path,
      status: allow === undefined ? 404 : 405,
      allow,
    })
    expect(problemType(answer)).toBe(
      allow === undefined ? '/problems/not-found' : '/problems/method-not-allowed',
    )
  }
})

test('framing the runtime refuses before Shiplog: the documented status, Connection: close, no body', async () => {
  const chunked = 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n'
  for (const [what, raw, status] of [
    [
      'a 100 KB URL',
      request(`GET /v1/deployments?app=${'a'.repeat(100_000)} HTTP/1.1`, '\r\n'),
      431,
    ],
    [
      'a 20,000-character cursor',
      request(`GET /v1/deployments?cursor=${'c'.repeat(20_000)} HTTP/1.1`, '\r\n'),
      431,
    ],
    [
      'Content-Length with Transfer-Encoding',
      request(
        'POST /v1/deployments HTTP/1.1',
        `${chunked}Content-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      ),
      400,
    ],
    [
      'two Content-Length headers',
      request('POST /v1/deployments HTTP/1.1', 'Content-Length: 2\r\nContent-Length: 3\r\n\r\n{} '),
      400,
    ],
    [
      'a negative Content-Length',
      request('POST /v1/deployments HTTP/1.1', 'Content-Length: -1\r\n\r\n'),
      400,
    ],
    [
      'a Transfer-Encoding other than chunked',
      request(
        'POST /v1/deployments HTTP/1.1',
        'Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      ),
      400,
    ],
    [
      'a chunk size that is not hexadecimal',
      request('POST /v1/deployments HTTP/1.1', `${chunked}\r\nzz\r\n{}\r\n0\r\n\r\n`),
      400,
    ],
  ] as const) {
    const answer = await sendRaw(raw)
    expect({
      what,
      status: answer.status,
      connection: answer.headers.connection,
      body: answer.body,
    }).toEqual({
      what,
      status,
      connection: 'close',
      body: '',
    })
  }
})

const chunkedPost = (body: string, extension: string, trailer: string) =>
  request(
    'POST /v1/deployments HTTP/1.1',
    'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n' +
      `${Buffer.byteLength(body).toString(16)}${extension}\r\n${body}\r\n0\r\n${trailer}\r\n`,
  )

const recorded = async () =>
  (await h.sql<{ count: number }[]>`select count(*)::int as count from deployments`)[0]?.count

test('a chunk extension is ignored and the deployment accepted; a body with a trailer is refused and not recorded', async () => {
  const extended = await sendRaw(
    chunkedPost(JSON.stringify(validDeployment({ version: 'extension' })), ';note=x', ''),
  )
  expect({ status: extended.status, body: extended.body }).toEqual({
    status: 202,
    body: '{"status":202}',
  })
  await h.drain()
  const before = await recorded()
  expect(before).toBeGreaterThan(0)
  const trailed = await sendRaw(
    chunkedPost(JSON.stringify(validDeployment({ version: 'trailer' })), '', 'X-Checksum: 1\r\n'),
  )
  expect(trailed).toEqual({ status: 400, headers: { connection: 'close' }, body: '' })
  // Told 400, its client retries: what it sent is not recorded, so the retry counts once.
  await Bun.sleep(200)
  await h.drain()
  expect(await recorded()).toBe(before)
})
