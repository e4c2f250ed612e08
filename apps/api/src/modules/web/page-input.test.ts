import { expect, test } from 'bun:test'
import { ListDeploymentsQuery } from '@shiplog/schema'
import { HttpProblem } from '../../kernel/problems.ts'
import { formOf, pageQuery, parametersOf, pathId } from './page-input.ts'

const ID = '0190f3c4-8a5e-7b2c-9d41-3f6a2b1c0d9e'

/** What `work` throws, as the problem body the page shows. */
function problemOf(work: () => unknown) {
  try {
    work()
  } catch (error) {
    if (error instanceof HttpProblem) return error.toBody()
    throw error
  }
  throw new Error('nothing was thrown')
}

test('a page query leaves out the empty fields a GET form sends', () => {
  const url = new URL('http://shiplog/ui/deployments?app=&environment=production&version=')
  expect(pageQuery(url).toString()).toBe('environment=production')
})

test('a page refuses a query with the 422 its API endpoint answers, every error listed', () => {
  const query = new URLSearchParams({ limit: '0', since: 'yesterday', colour: 'blue' })
  const fromPage = problemOf(() => parametersOf(ListDeploymentsQuery, query))
  expect(fromPage).toMatchObject({ status: 422, type: '/problems/validation-failed' })
  expect(fromPage.errors?.map((error) => error.field).sort()).toEqual(['colour', 'limit', 'since'])
  expect(parametersOf(ListDeploymentsQuery, new URLSearchParams({ limit: '5' }))).toMatchObject({
    limit: 5,
  })
})

test('a path id must be a UUID, else the page is a 404 naming what is missing', () => {
  expect(pathId(new URL(`http://shiplog/ui/deployments/${ID}`), 'deployment')).toBe(ID)
  expect(pathId(new URL(`http://shiplog/ui/incidents/${ID}/resolve`), 'incident')).toBe(ID)
  for (const path of ['/ui/incidents/42/resolve', '/ui/incidents/%00/resolve']) {
    expect(problemOf(() => pathId(new URL(`http://shiplog${path}`), 'incident'))).toMatchObject({
      status: 404,
      detail: 'No such incident.',
    })
  }
})

test('a form must be urlencoded and small', async () => {
  const post = (body: string, type = 'application/x-www-form-urlencoded') =>
    formOf(
      new Request('http://shiplog/ui/incidents', {
        method: 'POST',
        body,
        headers: { 'content-type': type },
      }),
    )
  expect((await post('title=Down&app=checkout')).get('title')).toBe('Down')
  await expect(post('{"title":"Down"}', 'application/json')).rejects.toMatchObject({ status: 422 })
  await expect(post(`title=${'x'.repeat(17 * 1024)}`)).rejects.toMatchObject({ status: 413 })
})
