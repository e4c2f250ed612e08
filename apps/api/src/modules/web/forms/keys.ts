import { issueApiKey, revokeKey } from '@shiplog/db/issue-api-key'
import { findKeysByIdOrPrefix } from '@shiplog/db/queries/api-keys'
import {
  type Checked,
  checkKeyName,
  type FieldError,
  isInvalid,
  isScope,
  type Scope,
} from '@shiplog/schema'
import { problems } from '../../../kernel/problems.ts'
import type { WebDeps } from '../deps.ts'
import { keysModel } from '../models/keys.ts'
import type { FormDeclaration, PostedValue } from '../posted-form.ts'
import { redirect } from '../responses.ts'
import type { PageRequest } from '../signed-in.ts'
import { keysPage } from '../views/keys.ts'

// `/ui/keys/<uuid>/revoke`: the id is the third segment.
const KEY_PATH =
  /^\/ui\/keys\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/revoke$/

type NewKey = { name: string; scopes: Scope[] }

/** The name and scopes of the create form, checked as the CLI checks them. */
function checkNewKey(body: unknown): Checked<NewKey> {
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

/** Creating a key: its name and scopes. */
export const newKeyForm: FormDeclaration<NewKey> = {
  needs: { scope: 'admin', what: 'Creating an API key' },
  bodyOf: (form) => form,
  check: checkNewKey,
}

/** Creates the key, and shows it in this answer and never again: no redirect that would lose it. */
export async function createFromForm({ page, web, value: { name, scopes } }: PostedValue<NewKey>) {
  const { principal } = page
  const issued = await issueApiKey(
    web.sql,
    { workspace: principal.workspaceSlug, name, scopes },
    principal.actor,
  )
  return keysPage(await keysModel(page, { created: { name, key: issued.key } }))
}

/** Revokes the workspace's key of the page's path (a 404 for any other), then lists them. */
export async function revokeFromForm(page: PageRequest, web: WebDeps) {
  const id = KEY_PATH.exec(page.url.pathname)?.[1]
  const [key] = id ? await findKeysByIdOrPrefix(web.sql, id) : []
  if (!key || key.workspace !== page.principal.workspaceSlug) {
    throw problems.notFound('No such key in this workspace.')
  }
  await revokeKey(web.sql, key.id, page.principal.actor)
  return redirect('/ui/keys?revoked=1')
}
