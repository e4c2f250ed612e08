import { Elysia } from 'elysia'
import { switchFromForm } from '../forms/workspace.ts'
import { answeredBy } from '../page-handler.ts'
import type { SignedInPages } from '../signed-in.ts'

/** `POST /ui/workspace`: a person with several workspaces moves their session to another. */
export function workspacePages(pages: SignedInPages) {
  return new Elysia().use(pages).post('/ui/workspace', answeredBy(switchFromForm), {
    signedIn: true,
    parse: 'none',
  })
}
