import { type Checked, type FieldError, validateDeploymentVoid } from '@shiplog/schema'
import { voidWorkspaceDeployment } from '../../deployments/service.ts'
import { deploymentModel } from '../models/deployment.ts'
import { pathId } from '../page-input.ts'
import type { FormDeclaration, PostedValue } from '../posted-form.ts'
import { redirect } from '../responses.ts'
import { deploymentPage } from '../views/deployment.ts'

/**
 * The void form: its reason checked as `DELETE /v1/deployments/{id}` checks its body, and the box
 * that confirms it ticked; every error at once.
 */
function voidFormCheck(form: unknown): Checked<{ reason: string | null }> {
  const fields = form as URLSearchParams
  const given = (fields.get('reason') ?? '').trim()
  const body = validateDeploymentVoid(given ? { reason: given } : {})
  const errors: FieldError[] = body.ok ? [] : [...body.errors]
  if (fields.get('confirm') !== 'yes') {
    errors.push({
      field: 'confirm',
      message: 'must be ticked: it confirms the deployment leaves every figure',
    })
  }
  return body.ok && errors.length === 0 ? body : { ok: false, errors }
}

/** Voiding a deployment, from its page; refused, the page again with the reason as typed. */
export const voidForm: FormDeclaration<{ reason: string | null }> = {
  needs: { scope: 'admin', what: 'Voiding' },
  bodyOf: (form) => form,
  check: voidFormCheck,
  refused: async (page, errors) =>
    deploymentPage(
      await deploymentModel(page, {
        id: pathId(page.url, 'deployment'),
        voidForm: { values: { reason: page.form.get('reason') ?? '' }, errors },
      }),
    ),
}

/** Voids the deployment of the page's path, then shows its page saying so. */
export async function voidFromForm({ page, web, value }: PostedValue<{ reason: string | null }>) {
  const id = pathId(page.url, 'deployment')
  const { principal } = page
  const clients = { replica: web.readSql, primary: web.sql }
  await voidWorkspaceDeployment(clients, web.queue, principal, principal.actor, id, value.reason)
  return redirect(`/ui/deployments/${id}?voided=1`)
}
