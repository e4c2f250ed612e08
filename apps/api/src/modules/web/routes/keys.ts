import { issueApiKey, revokeKey } from '@shiplog/db/issue-api-key'
import { findKeysByIdOrPrefix, listApiKeys } from '@shiplog/db/queries/api-keys'
import {
  type Checked,
  checkKeyName,
  type FieldError,
  isInvalid,
  isScope,
  type Scope,
} from '@shiplog/schema'
import { Elysia } from 'elysia'
import { problems } from '../../../kernel/problems.ts'
import type { WebDeps } from '../deps.ts'
import { postedForm } from '../posted-form.ts'
import { redirect } from '../responses.ts'
import { type PageRequest, requireRole, signedIn } from '../signed-in.ts'
import { keysPage } from '../views/keys.ts'

// `/ui/keys/<uuid>/revoke`: the id is the third segment.
const KEY_PATH =
  /^\/ui\/keys\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/revoke$/

/** The name and scopes of the create form, checked as the CLI checks them. */
function checkNewKey(body: unknown): Checked<{ name: string; scopes: Scope[] }> {
  const form = body as URLSearchParams
  const errors: FieldError[] = []
  // The one rule every way of making a key follows (the CLI's too): printable, at most 100.
  const name = checkKeyName(form.get('name') ?? '')
  if (isInvalid(name)) errors.push({ field: 'name', message: name.error })
  const named = form.getAll('scope')
  const scopes = [...new Set(named.filter(isScope))]
  if (scopes.length === 0 || scopes.length !== new Set(named).size) {
    errors.push({ field: 'scope', message: 'tick at least one scope, of those listed' })
  }
  if (errors.length > 0) return { ok: false, errors }
  return { ok: true, value: { name: name as string, scopes } }
}

/** `/ui/keys` (admins): the workspace's keys; create one, shown once; revoke one. */
export function keyRoutes(deps: WebDeps) {
  const list = (page: PageRequest) =>
    page.read(() => listApiKeys(deps.sql, page.principal.workspaceSlug))

  return new Elysia()
    .get(
      '/ui/keys',
      signedIn(deps, async (page) => {
        requireRole(page, 'admin', 'Managing API keys')
        const revoked = page.url.searchParams.has('revoked')
        return keysPage(await list(page), {
          ...page.viewer,
          ...(revoked ? { notice: 'Key revoked: every replica refuses it within 5 seconds.' } : {}),
        })
      }),
    )
    .post(
      '/ui/keys',
      postedForm(
        deps,
        {
          needs: { scope: 'admin', what: 'Creating an API key' },
          bodyOf: (form) => form,
          check: checkNewKey,
        },
        async (page, { name, scopes }) => {
          const { principal } = page
          const issued = await issueApiKey(
            deps.sql,
            { workspace: principal.workspaceSlug, name, scopes },
            principal.actor,
          )
          // Shown in this answer and never again: no redirect that would lose it.
          return keysPage(await list(page), { ...page.viewer, created: { name, key: issued.key } })
        },
      ),
      { parse: 'none' },
    )
    .post(
      '/ui/keys/:id/revoke',
      signedIn(deps, async (page) => {
        requireRole(page, 'admin', 'Revoking an API key')
        const id = KEY_PATH.exec(page.url.pathname)?.[1]
        const [key] = id ? await findKeysByIdOrPrefix(deps.sql, id) : []
        if (!key || key.workspace !== page.principal.workspaceSlug) {
          throw problems.notFound('No such key in this workspace.')
        }
        await revokeKey(deps.sql, key.id, page.principal.actor)
        return redirect('/ui/keys?revoked=1')
      }),
      { parse: 'none' },
    )
}
