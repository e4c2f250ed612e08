import { ensureWorkspace } from '@shiplog/db/queries/workspaces'
import { Elysia } from 'elysia'
import { problems } from '../../../kernel/problems.ts'
import type { WebDeps } from '../deps.ts'
import { redirect } from '../responses.ts'
import { moveSession } from '../session.ts'
import { signedIn } from '../signed-in.ts'

/** `POST /ui/workspace`: a person with several workspaces moves their session to another. */
export function workspaceRoutes(deps: WebDeps) {
  return new Elysia().post(
    '/ui/workspace',
    signedIn(deps, async (page) => {
      const slug = page.form.get('workspace') ?? ''
      // Only a person's own workspaces, by the role mapping as it is now.
      if (!page.principal.workspaces.includes(slug)) {
        throw problems.forbidden('You have no access to that workspace.')
      }
      // The mapping names it, so it exists for them: created on first use, as at sign-in.
      const { id } = await ensureWorkspace(deps.sql, slug)
      await moveSession(deps.sql, page.request, id)
      return redirect('/ui')
    }),
    { parse: 'none' },
  )
}
