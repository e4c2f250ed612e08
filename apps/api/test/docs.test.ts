import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { DeploymentInput } from '@shiplog/schema'
import { type Harness, startHarness } from './harness.ts'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

test('GET /openapi.json is a valid OpenAPI 3.1 document, public', async () => {
  const response = await h.get('/openapi.json', { key: null })
  expect(response.status).toBe(200)
  const document = await response.json()
  expect(document.openapi).toBe('3.1.0')
  const result = await new Validator().validate(document)
  expect(result.errors ?? []).toEqual([])
  expect(result.valid).toBe(true)
})

test('it documents every route the app serves', async () => {
  const document = await (await h.get('/openapi.json', { key: null })).json()
  const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${path}`),
  )
  const served = h.api.app.routes
    .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
    .filter((route) => !/ \/(metrics|openapi\.json|docs)$/.test(route))
  expect([...new Set(served)].sort()).toEqual([...new Set(documented)].sort())
})

test('its schemas are the ones the handlers validate with', async () => {
  const document = await (await h.get('/openapi.json', { key: null })).json()
  const input = document.components.schemas.DeploymentInput
  for (const [field, schema] of Object.entries(DeploymentInput.properties)) {
    expect(input.properties[field].maxLength).toBe((schema as { maxLength?: number }).maxLength)
  }
  expect(input.required.sort()).toEqual([...(DeploymentInput.required ?? [])].sort())
  expect(input.additionalProperties).toBe(false)
})

test('GET /docs renders it for people, every path on the page', async () => {
  const response = await h.get('/docs', { key: null })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toContain('text/html')
  const page = await response.text()
  const document = await (await h.get('/openapi.json', { key: null })).json()
  for (const path of Object.keys(document.paths)) expect(page).toContain(`<code>${path}</code>`)
  expect(page).toContain('repositoryFullName')
})
