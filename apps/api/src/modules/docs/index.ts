import { createHash } from 'node:crypto'
import { Elysia } from 'elysia'
import { openApiDocument } from '../../route-table/openapi.ts'
import type { RouteContract } from '../../route-table/route.ts'
import { INTRODUCTION } from './introduction.ts'
import { docsPage } from './page.ts'

/**
 * The headers `/ui` pages carry, for the one page here: no script at all, and only the page's own
 * inline stylesheet, allowed by its hash (the page is one document, with nothing to load).
 */
function docsHeaders(page: string): Record<string, string> {
  const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? ''
  const hash = createHash('sha256').update(style).digest('base64')
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'sha256-${hash}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  }
}

/** `GET /openapi.json` (OpenAPI 3.1, built from `routes`, the route table) and `GET /docs`. Public. */
export function docsRoutes(routes: readonly RouteContract[]) {
  const document = openApiDocument(routes, INTRODUCTION)
  const page = docsPage(document)
  const headers = docsHeaders(page)
  return new Elysia()
    .get('/openapi.json', () => document)
    .get('/docs', () => new Response(page, { headers }))
}
