// A readable, self-contained page of the OpenAPI document: no script, no CDN, so it also works
// where the service runs air-gapped.

const html = (text: unknown) =>
  String(text ?? '').replace(
    /[&<>"]/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] as string,
  )

interface Operation {
  summary?: string
  description?: string
  parameters?: {
    name: string
    in: string
    required?: boolean
    description?: string
    schema?: { type?: unknown }
  }[]
  requestBody?: unknown
  responses: Record<string, { description: string }>
}

function fieldsOf(schema: {
  properties?: Record<string, { type?: unknown; description?: string; maxLength?: number }>
  required?: string[]
}) {
  const required = new Set(schema.required ?? [])
  return Object.entries(schema.properties ?? {})
    .map(
      ([name, field]) =>
        `<tr><td><code>${html(name)}</code></td><td>${html(field.type ?? 'object')}${field.maxLength ? ` ≤ ${field.maxLength}` : ''}</td><td>${required.has(name) ? 'yes' : ''}</td><td>${html(field.description)}</td></tr>`,
    )
    .join('')
}

/** Renders the OpenAPI document as HTML. */
export function docsPage(
  document: ReturnType<typeof import('./openapi.ts').openApiDocument>,
): string {
  const schemas = document.components.schemas as Record<string, Parameters<typeof fieldsOf>[0]>
  const sections = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, operation]) => {
      const parameters = (operation.parameters ?? [])
        .map(
          (parameter) =>
            `<tr><td><code>${html(parameter.name)}</code></td><td>${html(parameter.in)}</td><td>${parameter.required ? 'yes' : ''}</td><td>${html(parameter.description)}</td></tr>`,
        )
        .join('')
      const body = operation.requestBody
        ? `<h4>Body (JSON)</h4><table><tr><th>Field</th><th>Type</th><th>Required</th><th></th></tr>${fieldsOf(schemas.DeploymentInput ?? {})}</table>`
        : ''
      const responses = Object.entries(operation.responses)
        .map(
          ([status, response]) =>
            `<li><code>${html(status)}</code> ${html(response.description)}</li>`,
        )
        .join('')
      return `<section><h3><span class="method">${method.toUpperCase()}</span> <code>${html(path)}</code></h3>
<p>${html(operation.summary)}</p>${operation.description ? `<p>${html(operation.description)}</p>` : ''}
${parameters ? `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Required</th><th></th></tr>${parameters}</table>` : ''}${body}
<h4>Responses</h4><ul>${responses}</ul></section>`
    }),
  )
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shiplog API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .2em;border-radius:3px}table{border-collapse:collapse;margin:.5rem 0}
td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
section{border-top:1px solid #ddd;padding-top:.5rem;margin-top:1.5rem}.method{color:#06c;font-weight:700}</style></head>
<body><h1>${html(document.info.title)} API</h1><p>${html(document.info.description)}</p>
<p>Authenticate with <code>Authorization: Bearer &lt;API key&gt;</code>. The machine-readable description is at <a href="/openapi.json"><code>/openapi.json</code></a> (OpenAPI 3.1).</p>
${sections.join('\n')}</body></html>`
}
