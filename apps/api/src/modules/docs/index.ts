import { Elysia } from 'elysia'
import { openApiDocument } from './openapi.ts'
import { docsPage } from './page.ts'

/** `GET /openapi.json` (OpenAPI 3.1) and `GET /docs` (the same, for people). Public. */
export function docsRoutes() {
  const document = openApiDocument()
  const page = docsPage(document)
  return new Elysia()
    .get('/openapi.json', () => document)
    .get('/docs', ({ set }) => {
      set.headers['content-type'] = 'text/html; charset=utf-8'
      return page
    })
}
