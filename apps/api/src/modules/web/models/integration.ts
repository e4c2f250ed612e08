import { integrationDeliveries, workspaceIntegration } from '../../integrations/service.ts'
import type { WebDeps } from '../deps.ts'
import { baseUrlOf, pathId } from '../page-input.ts'
import type { PageRequest } from '../signed-in.ts'
import { emptyForm, type FormState } from '../views/form-fields.ts'
import type { IntegrationModel } from '../views/integration.ts'

/** Which integration, and its delete form: fresh, or refused (not confirmed). */
export interface IntegrationPageInput {
  id: string
  deleteForm?: FormState
}

/** The integration of the page's path (a 404 for one that is no id). */
export const integrationInput = (page: PageRequest): IntegrationPageInput => ({
  id: pathId(page.url, 'integration'),
})

/**
 * `GET /ui/integrations/{id}` (admins): its settings and its latest deliveries, newest first, from
 * the primary, where the receivers store them; a 404 for another workspace's.
 */
export function integrationModel(
  page: PageRequest,
  input: IntegrationPageInput,
  web: WebDeps,
): Promise<IntegrationModel> {
  const owner = page.principal
  return page.snapshot(async ({ sql }) => {
    const [integration, deliveries] = await Promise.all([
      workspaceIntegration(sql, web.integrations, owner, input.id, baseUrlOf(page.request)),
      integrationDeliveries(sql, owner, input.id),
    ])
    return { ...page.viewer, integration, deliveries, deleteForm: input.deleteForm ?? emptyForm() }
  }, 'primary')
}
