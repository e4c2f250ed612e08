import { expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { runProcess } from '@shiplog/db/testing'
import { DeploymentInput } from '@shiplog/schema'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of the served document; the assertions narrow it
type Json = Record<string, any>

const h = harnessPerFile()

test('GET /openapi.json is a valid OpenAPI 3.1 document, public', async () => {
  const response = await h.get('/openapi.json', { key: null })
  expect(response.status).toBe(200)
  const document = await response.json()
  expect(document.openapi).toBe('3.1.0')
  const result = await new Validator().validate(document)
  expect(result.errors ?? []).toEqual([])
  expect(result.valid).toBe(true)
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

test('optional body fields are published as string | null, as the server accepts them', async () => {
  const document = await (await h.get('/openapi.json', { key: null })).json()
  const input = document.components.schemas.DeploymentInput
  for (const [field, schema] of Object.entries<Json>(input.properties)) {
    const optional = !input.required.includes(field)
    expect({ field, type: schema.type }).toEqual({
      field,
      type: optional ? ['string', 'null'] : 'string',
    })
    const response = await h.post(validDeployment({ version: `null-${field}`, [field]: null }))
    const problem = optional ? null : { field, message: 'is required' }
    expect({
      field,
      status: response.status,
      error: (await response.json()).errors?.[0] ?? null,
    }).toEqual({ field, status: optional ? 202 : 422, error: problem })
  }
})

test('Redocly’s recommended ruleset reports no error and no warning on /openapi.json', async () => {
  const served = await (await h.get('/openapi.json', { key: null })).text()
  const dir = await mkdtemp(join(tmpdir(), 'shiplog-openapi-'))
  try {
    await Bun.write(join(dir, 'openapi.json'), served)
    // Offline: no telemetry, no update check; run from an empty folder so no config is picked up.
    const cli = Bun.resolveSync('@redocly/cli/bin/cli.js', import.meta.dir)
    const lint = ['lint', 'openapi.json', '--extends', 'recommended', '--format', 'json']
    const {
      stdout: output,
      stderr: errors,
      code,
    } = await runProcess([process.execPath, cli, ...lint], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
    })
    const report = JSON.parse(output || `{"stderr":${JSON.stringify(errors)}}`)
    const problems = (report.problems ?? []).map(
      (problem: Json) =>
        `${problem.severity} ${problem.ruleId}: ${problem.message} (${problem.location?.[0]?.pointer})`,
    )
    // Without totals, the report shown on failure is what the CLI printed on stderr.
    expect({ problems, totals: report.totals ?? report, code }).toEqual({
      problems: [],
      totals: { errors: 0, warnings: 0, ignored: 0 },
      code: 0,
    })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}, 30_000)

test('it meets what Spectral’s spectral:oas adds: contact, tags, a description and id per operation', async () => {
  const document = await (await h.get('/openapi.json', { key: null })).json()
  expect(document.info).toMatchObject({
    contact: expect.any(Object),
    description: expect.any(String),
    license: { name: expect.any(String) },
  })
  expect(document.servers.length).toBeGreaterThan(0)
  const tags = new Set(document.tags.map((tag: Json) => tag.name))
  for (const tag of document.tags) expect(tag.description).toBeString()
  const ids: string[] = []
  for (const [path, methods] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(methods)) {
      const where = `${method.toUpperCase()} ${path}`
      ids.push(operation.operationId)
      expect({ where, id: /^[A-Za-z][A-Za-z0-9]*$/.test(operation.operationId) }).toEqual({
        where,
        id: true,
      })
      expect({ where, described: operation.description?.trim().length > 0 }).toEqual({
        where,
        described: true,
      })
      expect({
        where,
        tagged: operation.tags?.length > 0 && operation.tags.every((tag: string) => tags.has(tag)),
      }).toEqual({
        where,
        tagged: true,
      })
    }
  }
  expect(new Set(ids).size).toBe(ids.length)
})

/** Every field of a body, nested ones as `data[].failure.reason`: worked out here independently. */
function fieldPaths(schema: Json, schemas: Json, at = ''): string[] {
  if (schema.$ref) return fieldPaths(schemas[schema.$ref.split('/').pop()], schemas, at)
  if (schema.anyOf) return schema.anyOf.flatMap((option: Json) => fieldPaths(option, schemas, at))
  if (schema.type === 'array') return fieldPaths(schema.items, schemas, `${at}[]`)
  return Object.entries<Json>(schema.properties ?? {}).flatMap(([name, property]) => {
    const path = at ? `${at}.${name}` : name
    return [path, ...fieldPaths(property, schemas, path)]
  })
}

test('GET /docs shows every field of every response body, under its operation', async () => {
  const page = await (await h.get('/docs', { key: null })).text()
  const document = await (await h.get('/openapi.json', { key: null })).json()
  const schemas = document.components.schemas
  let checked = 0
  for (const methods of Object.values<Json>(document.paths)) {
    for (const operation of Object.values<Json>(methods)) {
      const start = page.indexOf(`<section id="${operation.operationId}">`)
      expect(start).toBeGreaterThan(-1)
      const section = page.slice(start, page.indexOf('</section>', start))
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        const body = response.content?.['application/json']?.schema
        if (!body) continue
        const fields = fieldPaths(body, schemas)
        expect({ status, fields: fields.length > 0 }).toEqual({ status, fields: true })
        for (const field of fields) {
          expect({
            operation: operation.operationId,
            status,
            field,
            shown: section.includes(`<td><code>${field}</code></td>`),
          }).toEqual({ operation: operation.operationId, status, field, shown: true })
          checked++
        }
      }
    }
  }
  expect(checked).toBeGreaterThan(50)
  // A field's type and description are in its row.
  expect(page).toMatch(
    /<td><code>nextCursor<\/code><\/td><td>string \| null<\/td><td>Pass as <code>cursor<\/code> for the next page/,
  )
})

test('GET /docs gives query parameters their types, renders Markdown code, and needs no script', async () => {
  const page = await (await h.get('/docs', { key: null })).text()
  expect(page).toContain(
    '<td><code>limit</code></td><td>query</td><td>integer, 1–100, default 50</td>',
  )
  expect(page).toContain(
    '<td><code>since</code></td><td>query</td><td>string (date | date-time)</td>',
  )
  expect(page).toContain(
    '<td><code>status</code></td><td>query</td><td>&quot;recorded&quot; | &quot;queued&quot; | &quot;failed&quot;, default &quot;recorded&quot;</td>',
  )
  expect(page).not.toContain('`')
  expect(page).toContain('<code>nextCursor</code> as <code>cursor</code>')
  expect(page).not.toMatch(/<script|\son[a-z]+=|(src|href)="(https?:)?\/\//i)
})

test('docs/api.md states every body field with the limit and required-ness the server applies', async () => {
  const root = new URL('../../../../', import.meta.url)
  const contract = await Bun.file(new URL('docs/api.md', root)).text()
  const rows = [
    ...contract.matchAll(/^\| `(\w+)` +\| string(?: or null)? +\| (yes|no) +\| (\d+|-) +\|/gm),
  ]
  const documented = Object.fromEntries(
    rows.map(([, field, required, max]) => [field, { required: required === 'yes', max }]),
  )
  const required = new Set<string>(DeploymentInput.required)
  const served = Object.fromEntries(
    Object.entries(DeploymentInput.properties).map(([field, schema]) => [
      field,
      {
        required: required.has(field),
        max: String((schema as { maxLength?: number }).maxLength ?? '-'),
      },
    ]),
  )
  expect(documented).toEqual(served)
  // The README and the docs stand alone: nothing points outside the repository.
  for (const file of ['README.md', 'docs/api.md']) {
    expect(await Bun.file(new URL(file, root)).text()).not.toContain('../shared')
  }
})
