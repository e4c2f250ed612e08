// A GitHub `deployment_status` delivery as a Shiplog deployment. Only `success` records one:
// - repository: the mapping's, else `repository.full_name`;
// - environment: the mapping's, else `deployment_status.environment`, else `deployment.environment`,
//   as sent;
// - app: `deployment.payload.app` when the payload names one (the workflow that deployed knows
//   best), else the mapping's, else the repository's name;
// - version: the mapping's, else `deployment.payload.version`, else `deployment.ref` when it is
//   not the SHA, else the SHA's first 12 characters;
// - commit `deployment.sha`; time `deployment_status.created_at`; author the login of who created
//   the deployment (else of the status); description the deployment's.
// `failure` and `error` say the deployment failed: what a failure signal is made from. Every other
// state is ignored, with the reason in words.

import { type Delivery, type IntegrationMapping, mappedValue, valueAt } from '../mapping.ts'
import { type DeliveryOutcome, lacking, outcomeOfState } from '../outcome.ts'

/** What a `deployment_status` delivery means for Shiplog under an integration's mapping. */
export function outcomeOfDeploymentStatus(
  delivery: Delivery,
  mapping: IntegrationMapping,
): DeliveryOutcome {
  const at = (path: string) => valueAt(delivery, path)
  const state = at('deployment_status.state')
  const sha = at('deployment.sha')
  const repository = mappedValue(mapping.repository, delivery) ?? at('repository.full_name')
  if (state === undefined || sha === undefined || repository === undefined) {
    return lacking('deployment_status', [
      'deployment_status.state',
      'deployment.sha',
      'repository.full_name',
    ])
  }
  const unfinished = outcomeOfState({
    stateName: 'deployment_status state',
    state,
    failedStates: ['failure', 'error'],
    senderDeploymentId: at('deployment.id'),
    at: at('deployment_status.created_at'),
  })
  if (unfinished) return unfinished
  const ref = at('deployment.ref')
  return {
    outcome: 'record',
    senderDeploymentId: at('deployment.id'),
    deployment: {
      repositoryFullName: repository,
      environment:
        mappedValue(mapping.environment, delivery) ??
        at('deployment_status.environment') ??
        at('deployment.environment') ??
        null,
      app:
        at('deployment.payload.app') ??
        mappedValue(mapping.app, delivery) ??
        repository.split('/').at(-1) ??
        null,
      version:
        mappedValue(mapping.version, delivery) ??
        at('deployment.payload.version') ??
        (ref !== undefined && ref !== sha ? ref : sha.slice(0, 12)),
      commitHash: mappedValue(mapping.commit, delivery) ?? sha,
      deployedAt: at('deployment_status.created_at') ?? null,
      author: at('deployment.creator.login') ?? at('deployment_status.creator.login') ?? null,
      description: at('deployment.description') ?? null,
    },
  }
}
