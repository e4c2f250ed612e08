import { Elysia } from 'elysia'
import { commitsCsv } from '../downloads.ts'
import { commitsInput, commitsModel } from '../models/commits.ts'
import { answeredBy, shown } from '../page-handler.ts'
import type { SignedInPages } from '../signed-in.ts'
import { commitsPage } from '../views/commits.ts'

/** `/ui/commits`: the commits change lead time counted, and their CSV. */
export function commitPages(pages: SignedInPages) {
  return new Elysia()
    .use(pages)
    .get('/ui/commits', shown(commitsInput, commitsModel, commitsPage), { signedIn: true })
    .get('/ui/commits.csv', answeredBy(commitsCsv), { signedIn: true })
}
