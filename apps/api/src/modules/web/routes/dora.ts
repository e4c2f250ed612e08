import { Elysia } from 'elysia'
import { doraCsv } from '../downloads.ts'
import { doraModel } from '../models/dora.ts'
import { answeredBy, shown } from '../page-handler.ts'
import { queryInput } from '../page-input.ts'
import type { SignedInPages } from '../signed-in.ts'
import { doraPage } from '../views/dora.ts'

/** `/ui/dora`: the five keys over a window, and `/ui/dora.csv`, the page's series as the API's CSV. */
export function doraPages(pages: SignedInPages) {
  return new Elysia()
    .use(pages)
    .get('/ui/dora.csv', answeredBy(doraCsv), { signedIn: true })
    .get('/ui/dora', shown(queryInput, doraModel, doraPage), { signedIn: true })
}
