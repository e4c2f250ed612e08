import { Elysia } from 'elysia'
import { releaseNotesFile } from '../downloads.ts'
import { compareModel } from '../models/compare.ts'
import { answeredBy, shown } from '../page-handler.ts'
import { queryInput } from '../page-input.ts'
import type { SignedInPages } from '../signed-in.ts'
import { comparePage } from '../views/compare.ts'

/** `/ui/compare`: what waits between two environments of an application, and its release notes. */
export function comparePages(pages: SignedInPages) {
  return new Elysia()
    .use(pages)
    .get('/ui/compare', shown(queryInput, compareModel, comparePage), { signedIn: true })
    .get('/ui/compare.md', answeredBy(releaseNotesFile), { signedIn: true })
}
