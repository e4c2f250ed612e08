import { expect, test } from 'bun:test'
import type { Problem } from '@shiplog/schema'
import { formatProblemLines, readProblem, summarizeProblem } from './problem.ts'

const invalid: Problem = {
  type: '/problems/validation-failed',
  title: 'Validation failed',
  status: 422,
  detail: 'The request has 2 invalid fields: fix every one listed in errors and send it again.',
  errors: [
    { field: 'commitHash', message: 'must be 7 to 70 hexadecimal characters' },
    { field: 'deployed_at', message: 'is not a known field; did you mean "deployedAt"?' },
  ],
}

test('a validation problem reads as its field errors', () => {
  expect(summarizeProblem(invalid)).toBe(
    '422 Validation failed: commitHash must be 7 to 70 hexadecimal characters; ' +
      'deployed_at is not a known field; did you mean "deployedAt"?',
  )
})

test('a problem without field errors reads as its detail', () => {
  expect(
    summarizeProblem({
      type: '/problems/unauthorized',
      title: 'Unauthorized',
      status: 401,
      detail: 'The API key is not valid.',
    }),
  ).toBe('401 Unauthorized: The API key is not valid.')
})

test('for a terminal: the detail, then one line per field, labelled as the reader wants', () => {
  expect(formatProblemLines(invalid, (field) => `<${field}>`)).toEqual([
    '422 Validation failed: The request has 2 invalid fields: fix every one listed in errors and send it again.',
    '  <commitHash>: must be 7 to 70 hexadecimal characters',
    '  <deployed_at>: is not a known field; did you mean "deployedAt"?',
  ])
})

test('a problem+json body is read as sent', async () => {
  const response = new Response(JSON.stringify(invalid), {
    status: 422,
    headers: { 'content-type': 'application/problem+json' },
  })
  expect(await readProblem(response)).toEqual(invalid)
})

test("a proxy's HTML error page becomes a problem with its text as detail", async () => {
  const response = new Response('<html><body>\n  <h1>502 Bad Gateway</h1>\n</body></html>', {
    status: 502,
    statusText: 'Bad Gateway',
  })
  expect(await readProblem(response)).toEqual({
    type: 'about:blank',
    title: 'Bad Gateway',
    status: 502,
    detail: '<html><body> <h1>502 Bad Gateway</h1> </body></html>',
  })
})

test('JSON that is not a problem, or no body at all, still yields one', async () => {
  const other = await readProblem(new Response('{"message":"nope"}', { status: 500 }))
  expect(other).toMatchObject({ status: 500, title: 'HTTP 500', detail: '{"message":"nope"}' })
  const empty = await readProblem(new Response(null, { status: 504 }))
  expect(empty.detail).toBe('The server answered 504 without a problem description.')
})
