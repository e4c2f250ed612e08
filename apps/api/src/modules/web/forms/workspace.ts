import { ensureWorkspace } from '@shiplog/db/queries/workspaces'
import { problems } from '../../../kernel/problems.ts'
import type { WebDeps } from '../deps.ts'
import { redirect } from '../responses.ts'
import { moveSession } from '../session.ts'
import type { PageRequest } from '../signed-in.ts'

/** Moves a person's session to another of their workspaces, then shows its overview. */
export async function switchFromForm(page: PageRequest, web: WebDeps) {
  const slug = page.form.get('workspace') ?? ''
  // Only a person's own workspaces, by the role mapping as it is now.
  if (!page.principal.workspaces.includes(slug)) {
    throw problems.forbidden('You have no access to that workspace.')
  }
  // The mapping names it, so it exists for them: created on first use, as at sign-in.
  const { id } = await ensureWorkspace(web.sql, slug)
  await moveSession(web.sql, page.request, id)
  return redirect('/ui')
}
