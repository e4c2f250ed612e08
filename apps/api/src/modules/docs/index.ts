import { Elysia } from 'elysia'
import { openApiDocument } from '../../route-table/openapi.ts'
import { API_ROUTES } from '../../route-table/table.ts'
import { INTRODUCTION } from './introduction.ts'
import { docsPage } from './page.ts'

/** `GET /openapi.json` (OpenAPI 3.1, built from the route table) and `GET /docs`. Public. */
export function docsRoutes() {
  const document = openApiDocument(API_ROUTES, INTRODUCTION)
  const page = docsPage(document)
  return new Elysia()
    .get('/openapi.json', () => document)
    .get('/docs', ({ set }) => {
      set.headers['content-type'] = 'text/html; charset=utf-8'
      return page
    })
}
