import { listEnvironments } from '@shiplog/db/queries/catalog'
import { replacedDeployment } from '@shiplog/db/queries/dashboard'
import type { DeploymentCommits } from '@shiplog/schema'
import { HttpProblem } from '../../../kernel/problems.ts'
import { historyOf } from '../../audit/service.ts'
import { deploymentCommitsOf } from '../../deployments/commits.ts'
import { getDeployment } from '../../deployments/service.ts'
import { pathId } from '../page-input.ts'
import { may, type PageRequest } from '../signed-in.ts'
import type { DeploymentModel } from '../views/deployment.ts'
import { emptyForm, type FormState } from '../views/form-fields.ts'
import { formInstant } from '../views/incident-form.ts'

/** Which deployment, and the state of its page's forms: fresh, or the void form refused as typed. */
export interface DeploymentInput {
  id: string
  notice?: string
  voidForm?: FormState
}

/** The deployment of the page's path (a 404 for one that is no id), and the notice of a void. */
export function deploymentInput(page: PageRequest): DeploymentInput {
  const id = pathId(page.url, 'deployment')
  return { id, ...(page.url.searchParams.has('voided') ? { notice: 'Voided.' } : {}) }
}

/** The commits stored for a deployment, or undefined when none were sent. */
const commitsOrNone = (commits: Promise<DeploymentCommits>) =>
  commits.catch((error): DeploymentCommits | undefined => {
    if (error instanceof HttpProblem && error.status === 404) return undefined
    throw error
  })

/**
 * `GET /ui/deployments/{id}`: its receipt (recorded, else what the queue knows), its commits, the
 * deployment it replaced, its history, and the forms the session may use.
 */
export function deploymentModel(
  page: PageRequest,
  input: DeploymentInput,
): Promise<DeploymentModel> {
  const owner = page.principal
  const { id } = input
  return page.snapshot(async ({ sql, clients, queue }) => {
    const deployment = await getDeployment(clients, queue, owner, id)
    const canonical = deployment.duplicateOf ?? id
    const mayOpen = may(page, 'incidents:write') && deployment.status === 'recorded'
    const [commits, replaced, history, environments] = await Promise.all([
      commitsOrNone(deploymentCommitsOf(clients, owner, id)),
      replacedDeployment(sql, owner.workspaceId, canonical),
      // The audit trail from the primary: a void is shown on the page its post redirects to.
      historyOf(clients.primary, owner, [id, ...(deployment.duplicateOf ? [canonical] : [])]),
      mayOpen ? listEnvironments(sql, owner.workspaceId) : [],
    ])
    return {
      ...page.viewer,
      deployment,
      commits,
      replaced,
      history,
      mayVoid: may(page, 'admin'),
      voidForm: input.voidForm ?? emptyForm(),
      ...(input.notice ? { notice: input.notice } : {}),
      ...(mayOpen
        ? {
            incident: {
              environments: environments.map((environment) => environment.environment),
              // From here, an incident is about this deployment and starts now.
              form: emptyForm({
                app: deployment.app,
                environment: deployment.environment,
                causeDeploymentId: canonical,
                startedAt: formInstant(new Date()),
              }),
            },
          }
        : {}),
    }
  })
}
