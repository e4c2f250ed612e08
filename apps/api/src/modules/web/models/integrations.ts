import { workspaceIntegrations } from '../../integrations/service.ts'
import type { WebDeps } from '../deps.ts'
import { baseUrlOf } from '../page-input.ts'
import type { PageRequest } from '../signed-in.ts'
import { emptyForm, type FormState } from '../views/form-fields.ts'
import type { IntegrationsModel } from '../views/integrations.ts'

const NOTICES: Record<string, string> = {
  deleted: 'Integration deleted: its URL is refused within seconds on every replica.',
}

/** What the page says beside the list: a form's notice, or the create form refused as typed. */
export interface IntegrationsInput {
  notice?: string
  form?: FormState
}

/** The notice of a deletion, which redirects here. */
export function integrationsInput(page: PageRequest): IntegrationsInput {
  const notice = NOTICES[page.url.searchParams.get('notice') ?? '']
  return notice ? { notice } : {}
}

/**
 * `GET /ui/integrations` (admins): the workspace's integrations, from the primary, where they are
 * made; their URLs as the browser reaches this server, unless PUBLIC_URL names it.
 */
export function integrationsModel(
  page: PageRequest,
  input: IntegrationsInput,
  web: WebDeps,
): Promise<IntegrationsModel> {
  return page.snapshot(
    async ({ sql }) => ({
      ...page.viewer,
      integrations: await workspaceIntegrations(
        sql,
        web.integrations,
        page.principal,
        baseUrlOf(page.request),
      ),
      form: input.form ?? emptyForm(),
      ...(input.notice ? { notice: input.notice } : {}),
    }),
    'primary',
  )
}
