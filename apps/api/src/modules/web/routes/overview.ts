import { Elysia } from 'elysia'
import { overviewInput, overviewModel } from '../models/overview.ts'
import { shown } from '../page-handler.ts'
import type { SignedInPages } from '../signed-in.ts'
import { overviewPage } from '../views/overview.ts'

/** `GET /ui`: what runs where, in pipeline order, with marks and what waits for production. */
export function overviewPages(pages: SignedInPages) {
  return new Elysia()
    .use(pages)
    .get('/ui', shown(overviewInput, overviewModel, overviewPage), { signedIn: true })
}
