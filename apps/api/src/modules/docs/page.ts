// A readable, self-contained page of the OpenAPI document: no script, no CDN, so it also works
// where the service runs air-gapped.
import type { Json } from '../../route-table/components.ts'
import type { OpenApiDocument } from '../../route-table/openapi.ts'
import { type Field, fieldsOf, refName, typeWithLimits } from './fields.ts'

const html = (text: unknown) =>
  String(text ?? '').replace(
    /[&<>"]/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] as string,
  )

/** Text with Markdown code spans (`like this`) as `<code>`, everything else escaped. */
const inline = (text: unknown) => html(text).replace(/`([^`]+)`/g, '<code>$1</code>')

/** Markdown paragraphs (blank-line separated) with code spans. */
const prose = (text: unknown) =>
  String(text ?? '')
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${inline(paragraph)}</p>`)
    .join('\n')

const link = (name: string) => `<a href="#schema-${html(name)}">${html(name)}</a>`

// A type with every named schema in it linked to its section.
const linkedType = (type: string) =>
  html(type).replace(/\b([A-Z]\w+)\b/g, (name) => `<a href="#schema-${name}">${name}</a>`)

const table = (headings: string[], rows: string[][]) =>
  `<table><tr>${headings.map((heading) => `<th>${heading}</th>`).join('')}</tr>${rows
    .map((cells) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`)
    .join('')}</table>`

function fieldTable(fields: Field[], withRequired: boolean): string {
  if (fields.length === 0) return '<p>No fields.</p>'
  return table(
    withRequired ? ['Field', 'Type', 'Required', 'Description'] : ['Field', 'Type', 'Description'],
    fields.map((field) => [
      `<code>${html(field.name)}</code>`,
      linkedType(field.type),
      ...(withRequired ? [field.required ? 'yes' : ''] : []),
      inline(field.description),
    ]),
  )
}

interface Parameter {
  name: string
  in: string
  required?: boolean
  description?: string
  schema?: Json
}

interface Response {
  description: string
  headers?: Record<string, Json>
  content?: Record<string, { schema: Json }>
}

interface Operation {
  operationId: string
  tags: string[]
  summary: string
  description: string
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema: Json }> }
  responses: Record<string, Response>
}

/** Renders the OpenAPI document as one HTML page: every operation, field and schema. */
export function docsPage(document: OpenApiDocument): string {
  const schemas = document.components.schemas as Record<string, Json>
  const headers = document.components.headers as Record<string, Json>
  const resolve = (name: string) => schemas[name]
  const headerOf = (header: Json) => headers[String(header.$ref).split('/').pop() ?? ''] ?? header

  const bodyOf = (content: Record<string, { schema: Json }> | undefined) =>
    Object.entries(content ?? {})[0]

  function responseSection(status: string, response: Response): string {
    const headerRows = Object.entries(response.headers ?? {}).map(([name, header]) => {
      const resolved = headerOf(header)
      return [
        `<code>${html(name)}</code>`,
        html(typeWithLimits((resolved.schema ?? {}) as Json)),
        inline(resolved.description),
      ]
    })
    const [mediaType, body] = bodyOf(response.content) ?? []
    const named = body ? refName(body.schema) : undefined
    return `<h5><code>${html(status)}</code> ${inline(response.description)}</h5>
${headerRows.length > 0 ? table(['Header', 'Type', 'Description'], headerRows) : ''}
${body ? `<p>Body: <code>${html(mediaType)}</code>${named ? `, ${link(named)}` : ''}</p>${fieldTable(fieldsOf(body.schema, resolve), false)}` : ''}`
  }

  function errorTable(responses: [string, Response][]): string {
    return table(
      ['Status', 'When', 'Headers'],
      responses.map(([status, response]) => [
        `<code>${html(status)}</code>`,
        inline(response.description),
        Object.keys(response.headers ?? {})
          .map((name) => `<code>${html(name)}</code>`)
          .join(', '),
      ]),
    )
  }

  function operationSection(path: string, method: string, operation: Operation): string {
    const parameters = (operation.parameters ?? []).map((parameter) => [
      `<code>${html(parameter.name)}</code>`,
      html(parameter.in),
      linkedType(typeWithLimits(parameter.schema ?? {})),
      parameter.required ? 'yes' : '',
      inline(parameter.description),
    ])
    const [mediaType, body] = bodyOf(operation.requestBody?.content) ?? []
    const named = body ? refName(body.schema) : undefined
    const responses = Object.entries(operation.responses)
    const successes = responses.filter(([status]) => status.startsWith('2'))
    const errors = responses.filter(([status]) => !status.startsWith('2'))
    return `<section id="${html(operation.operationId)}">
<h3><span class="method">${method.toUpperCase()}</span> <code>${html(path)}</code></h3>
<p><strong>${inline(operation.summary)}</strong></p>
${prose(operation.description)}
${parameters.length > 0 ? `<h4>Parameters</h4>${table(['Name', 'In', 'Type', 'Required', 'Description'], parameters)}` : ''}
${body ? `<h4>Request body</h4><p><code>${html(mediaType)}</code>${named ? `, ${link(named)}` : ''}</p>${fieldTable(fieldsOf(body.schema, resolve), true)}` : ''}
<h4>Responses</h4>
${successes.map(([status, response]) => responseSection(status, response)).join('\n')}
<h5>Errors</h5><p>Each body is problem details, ${link('Problem')}.</p>
${errorTable(errors)}
</section>`
  }

  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, operation]) => ({
      path,
      method,
      operation,
    })),
  )
  const byTag = document.tags.map((tag) => ({
    tag,
    operations: operations.filter(({ operation }) => operation.tags.includes(tag.name)),
  }))
  const contents = byTag
    .map(
      ({ tag, operations }) =>
        `<li>${html(tag.name)}<ul>${operations
          .map(
            ({ path, method, operation }) =>
              `<li><a href="#${html(operation.operationId)}">${method.toUpperCase()} ${html(path)}</a>: ${inline(operation.summary)}</li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('')
  const tagSections = byTag
    .map(
      ({ tag, operations }) =>
        `<h2>${html(tag.name)}</h2>${prose(tag.description)}\n${operations
          .map(({ path, method, operation }) => operationSection(path, method, operation))
          .join('\n')}`,
    )
    .join('\n')
  const schemaSections = Object.entries(schemas)
    .map(
      ([name, schema]) =>
        `<section id="schema-${html(name)}"><h3>${html(name)}</h3>${prose(schema.description)}${fieldTable(fieldsOf(schema, resolve), true)}</section>`,
    )
    .join('\n')

  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shiplog API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:64rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .2em;border-radius:3px}table{border-collapse:collapse;margin:.5rem 0}
td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
section{border-top:1px solid #ddd;padding-top:.5rem;margin-top:1.5rem}.method{color:#06c;font-weight:700}
h5{font-size:1rem;margin:1rem 0 .25rem}</style></head>
<body><h1>${html(document.info.title)} API <small>${html(document.info.version)}</small></h1>
${prose(document.info.description)}
<p>The machine-readable description is at <a href="/openapi.json"><code>/openapi.json</code></a> (OpenAPI 3.1).</p>
<nav><h2>Contents</h2><ul>${contents}<li><a href="#schemas">Schemas</a></li><li><a href="#operations">For operators</a></li></ul></nav>
${tagSections}
<h2 id="schemas">Schemas</h2><p>The request and response bodies by name, as the <code>@shiplog/schema</code> package exports them.</p>
${schemaSections}
<h2 id="operations">For operators</h2>
<p>Outside the client API, for the cluster: <code>GET /healthz</code> answers 200 while the process runs; <code>GET /readyz</code> answers 200 when Postgres is reachable and migrated, 503 otherwise and once shutdown begins; Prometheus metrics are served at <code>GET /metrics</code> on a port of their own (<code>METRICS_PORT</code>).</p>
</body></html>`
}
