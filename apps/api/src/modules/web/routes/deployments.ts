import { listEnvironments } from '@shiplog/db/queries/catalog'
import { replacedDeployment } from '@shiplog/db/queries/dashboard'
import {
  type Checked,
  type DeploymentCommits,
  type FieldError,
  ListDeploymentsQuery,
  validateDeploymentVoid,
} from '@shiplog/schema'
import { Elysia } from 'elysia'
import { HttpProblem } from '../../../kernel/problems.ts'
import { historyOf } from '../../audit/service.ts'
import { deploymentCommitsOf } from '../../deployments/commits.ts'
import { exportWorkspaceDeployments } from '../../deployments/export.ts'
import {
  getDeployment,
  listWorkspaceDeployments,
  voidWorkspaceDeployment,
} from '../../deployments/service.ts'
import type { WebDeps } from '../deps.ts'
import { pageQuery, parametersOf, pathId } from '../page-input.ts'
import { postedForm } from '../posted-form.ts'
import { redirect } from '../responses.ts'
import { may, type PageRequest, signedIn } from '../signed-in.ts'
import { deploymentPage } from '../views/deployment.ts'
import { deploymentsPage, type TimelineFilters } from '../views/deployments.ts'
import { emptyForm, type FormState } from '../views/form-fields.ts'
import { formInstant } from '../views/incident-form.ts'

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

/** `/ui/deployments`: the timeline and its CSV, one deployment's receipt, and voiding it. */
export function deploymentRoutes(deps: WebDeps) {
  const clients = { replica: deps.readSql, primary: deps.sql }

  /** One deployment's page, its forms in the state given (fresh, or refused as typed). */
  async function deploymentContent(
    page: PageRequest,
    id: string,
    forms: { notice?: string; voidForm?: FormState } = {},
  ) {
    const owner = page.principal
    const deployment = await page.read(() => getDeployment(clients, deps.queue, owner, id))
    const commits = await page.read(() =>
      deploymentCommitsOf(clients, owner, id).catch((error): DeploymentCommits | undefined => {
        if (error instanceof HttpProblem && error.status === 404) return undefined
        throw error
      }),
    )
    const replaced = await page.read(() =>
      replacedDeployment(deps.readSql, owner.workspaceId, deployment.duplicateOf ?? id),
    )
    const history = await page.read(() =>
      historyOf(deps.sql, owner, [id, ...(deployment.duplicateOf ? [deployment.duplicateOf] : [])]),
    )
    const mayOpen = may(page, 'incidents:write') && deployment.status === 'recorded'
    const environments = mayOpen
      ? (await page.read(() => listEnvironments(deps.readSql, owner.workspaceId))).map(
          (environment) => environment.environment,
        )
      : []
    return deploymentPage(deployment, commits, replaced, history, {
      ...page.viewer,
      mayVoid: may(page, 'admin'),
      voidForm: forms.voidForm ?? emptyForm(),
      ...(forms.notice ? { notice: forms.notice } : {}),
      ...(mayOpen
        ? {
            incident: {
              environments,
              // From here, an incident is about this deployment and starts now.
              form: emptyForm({
                app: deployment.app,
                environment: deployment.environment,
                causeDeploymentId: deployment.duplicateOf ?? deployment.id,
                startedAt: formInstant(new Date()),
              }),
            },
          }
        : {}),
    })
  }

  return new Elysia()
    .get(
      '/ui/deployments',
      signedIn(deps, async (page) => {
        const query = pageQuery(page.url)
        const filters = Object.fromEntries(query) as TimelineFilters
        const parsed = parametersOf(ListDeploymentsQuery, query)
        const list = await page.read(() =>
          listWorkspaceDeployments(clients, deps.queue, page.principal, parsed),
        )
        return deploymentsPage(list, filters)
      }),
    )
    .get(
      '/ui/deployments.csv',
      signedIn(deps, async (page) => {
        const query = pageQuery(page.url)
        const parsed = parametersOf(ListDeploymentsQuery, query)
        return exportWorkspaceDeployments(
          clients,
          deps.queue,
          deps.reads,
          page.principal,
          page.principal.slot,
          parsed,
          query,
        )
      }),
    )
    .get(
      '/ui/deployments/:id',
      signedIn(deps, (page) =>
        deploymentContent(page, pathId(page.url, 'deployment'), {
          ...(page.url.searchParams.has('voided') ? { notice: 'Voided.' } : {}),
        }),
      ),
    )
    .post(
      '/ui/deployments/:id/void',
      postedForm(
        deps,
        {
          needs: { scope: 'admin', what: 'Voiding' },
          bodyOf: (form) => form,
          check: voidFormCheck,
          refused: (page, errors) =>
            deploymentContent(page, pathId(page.url, 'deployment'), {
              voidForm: { values: { reason: page.form.get('reason') ?? '' }, errors },
            }),
        },
        async (page, { reason }) => {
          const id = pathId(page.url, 'deployment')
          const { principal } = page
          await voidWorkspaceDeployment(clients, deps.queue, principal, principal.actor, id, reason)
          return redirect(`/ui/deployments/${id}?voided=1`)
        },
      ),
      { parse: 'none' },
    )
}
