// A sender's failure status (GitHub `failure`/`error`, GitLab `failed`) after the success of the
// same deployment marks that deployment failed: Shiplog opens an incident caused by it, started
// when the sender reported the failure, as a person would (docs/integrations.md, "A deployment
// that fails after its success"). Deliveries come in any order, so a failure that comes before
// its success waits for it, and one whose deployment is still queued is taken again shortly.

import type { Tx } from '@shiplog/db/client'
import { settleDelivery, type WaitingDelivery } from '@shiplog/db/integrations/deliveries'
import { insertIncident } from '@shiplog/db/queries/incidents'
import { uuidv7 } from '@shiplog/db/uuidv7'
import { SOURCES } from '@shiplog/integrations/interpret'
import { instantFromDate } from '@shiplog/schema'

/** How long a failure waits for its deployment, queued, to be recorded before it is ignored. */
const QUEUED_DEPLOYMENT_PATIENCE_MS = 10 * 60_000

interface FailureStatus {
  senderDeploymentId: string
  state: string
  at: string | undefined
}

/** The deployment the success of `senderDeploymentId` recorded, as far as it is recorded. */
async function succeededDeployment(tx: Tx, integrationId: string, senderDeploymentId: string) {
  const [row] = await tx<
    {
      deliveryDeploymentId: string
      id: string | null
      environmentId: string | null
      app: string | null
      appKey: string | null
      deployedAt: Date | null
    }[]
  >`
    select s.deployment_id::text as "deliveryDeploymentId", d.id::text as id,
           d.environment_id::text as "environmentId", a.name as app, a.name_key as "appKey",
           d.deployed_at as "deployedAt"
      from integration_deliveries s
      left join deployments d
        on d.id = coalesce((select deployment_id from deployment_aliases where id = s.deployment_id),
                           s.deployment_id)
      left join applications a on a.id = d.application_id
     where s.integration_id = ${integrationId} and s.sender_deployment_id = ${senderDeploymentId}
       and s.state = 'recorded' and s.reason is null
     order by s.id limit 1`
  return row
}

/** Handles a failure status; leaves it waiting (unsettled) while its deployment is queued. */
export async function settleFailure(
  tx: Tx,
  waiting: WaitingDelivery,
  failure: FailureStatus,
): Promise<void> {
  const label = SOURCES[waiting.source].label
  const said = `${label} reported deployment ${failure.senderDeploymentId} '${failure.state}'`
  const success = await succeededDeployment(tx, waiting.integrationId, failure.senderDeploymentId)
  if (!success) {
    await settleDelivery(tx, waiting.id, {
      state: 'ignored',
      senderDeploymentId: failure.senderDeploymentId,
      keepBody: true,
      reason: `${said}, and no success of it was received: only a deployment that succeeded can fail after (if its success arrives later, this marks it failed then)`,
    })
    return
  }
  if (success.id === null) {
    if (Date.now() - waiting.receivedAt.getTime() < QUEUED_DEPLOYMENT_PATIENCE_MS) return
    await settleDelivery(tx, waiting.id, {
      state: 'ignored',
      senderDeploymentId: failure.senderDeploymentId,
      reason: `${said}, but its success was never recorded (see the receipt of deployment ${success.deliveryDeploymentId})`,
    })
    return
  }
  const at = failure.at === undefined ? undefined : new Date(failure.at)
  if (at === undefined || Number.isNaN(at.getTime()) || success.deployedAt === null) {
    await settleDelivery(tx, waiting.id, {
      state: 'ignored',
      senderDeploymentId: failure.senderDeploymentId,
      reason: `${said} without a time it happened`,
    })
    return
  }
  if (at <= success.deployedAt) {
    await settleDelivery(tx, waiting.id, {
      state: 'ignored',
      senderDeploymentId: failure.senderDeploymentId,
      reason: `${said} before its success: a failed attempt, not a failed change`,
    })
    return
  }
  const title = `${said} after its success`
  const [open] = await tx`
    select 1 from incidents where cause_deployment_id = ${success.id} and title = ${title}`
  if (!open) {
    await insertIncident(tx, {
      id: uuidv7(),
      workspaceId: waiting.workspaceId,
      environmentId: success.environmentId ?? '',
      app: success.app,
      appKey: success.appKey,
      title,
      startedAt: instantFromDate(at).iso,
      resolvedAt: null,
      causeDeploymentId: success.id,
      createdBy: { kind: 'cli' },
    })
  }
  await settleDelivery(tx, waiting.id, {
    state: 'recorded',
    deploymentId: success.id,
    senderDeploymentId: failure.senderDeploymentId,
    reason: `marked deployment ${success.id} failed: an incident caused by it opened at ${instantFromDate(at).iso}`,
  })
}

/**
 * A success just queued: failures of the same deployment that came before it are taken again,
 * now that there is a success for them to follow.
 */
export async function settleFailuresWaitingFor(
  tx: Tx,
  waiting: WaitingDelivery,
  senderDeploymentId: string,
): Promise<void> {
  await tx`
    update integration_deliveries
       set state = 'received', reason = null, handled_at = null
     where integration_id = ${waiting.integrationId}
       and sender_deployment_id = ${senderDeploymentId}
       and state = 'ignored' and (body_deflated is not null or body is not null)`
}
