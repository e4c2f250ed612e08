import { Elysia } from 'elysia'
import { switchFromForm } from '../forms/workspace.ts'
import { answered } from '../page-handler.ts'
import type { SignedInPages } from '../signed-in.ts'

/** `POST /ui/workspace`: a person with several workspaces moves their session to another. */
export function workspacePages(pages: SignedInPages) {
  return new Elysia()
    .use(pages)
    .post('/ui/workspace', ({ page, web }) => answered(page, () => switchFromForm(web, page)), {
      signedIn: true,
      parse: 'none',
    })
}
