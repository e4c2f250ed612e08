import { Elysia } from 'elysia'
import { openApiDocument } from '../../route-table/openapi.ts'
import type { RouteContract } from '../../route-table/route.ts'
import { INTRODUCTION } from './introduction.ts'
import { docsPage } from './page.ts'

/** `GET /openapi.json` (OpenAPI 3.1, built from `routes`, the route table) and `GET /docs`. Public. */
export function docsRoutes(routes: readonly RouteContract[]) {
  const document = openApiDocument(routes, INTRODUCTION)
  const page = docsPage(document)
  return new Elysia()
    .get('/openapi.json', () => document)
    .get('/docs', ({ set }) => {
      set.headers['content-type'] = 'text/html; charset=utf-8'
      return page
    })
}
