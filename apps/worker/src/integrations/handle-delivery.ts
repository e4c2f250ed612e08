import type { Tx } from '@shiplog/db/client'
import { awaitCommitChain } from '@shiplog/db/integrations/commit-chains'
import { settleDelivery, type WaitingDelivery } from '@shiplog/db/integrations/deliveries'
import {
  applyAlertGroup,
  applyIncidentState,
  type IncidentApplied,
  type ReportedIncident,
} from '@shiplog/db/integrations/incidents-in'
import { storePush } from '@shiplog/db/integrations/pushes'
import { insertIntoInbox } from '@shiplog/db/queue'
import { uuidv7 } from '@shiplog/db/uuidv7'
import type { IncidentSubject } from '@shiplog/integrations/incident'
import { interpret } from '@shiplog/integrations/interpret'
import type { Delivery, IntegrationMapping } from '@shiplog/integrations/mapping'
import type { DeliveryOutcome } from '@shiplog/integrations/outcome'
import type { Push } from '@shiplog/integrations/push'
import { commitTextLine, nameKey, validateDeployment } from '@shiplog/schema'
import { settleFailure, settleFailuresWaitingFor } from './failure-status.ts'

type RecordOutcome = Extract<DeliveryOutcome, { outcome: 'record' }>

/** A delivery's body and headers as its integration's mapping reads them; undefined if not JSON. */
function deliveryOf(waiting: WaitingDelivery): Delivery | undefined {
  try {
    const body: unknown = JSON.parse(waiting.body)
    return { body, headers: new Headers(waiting.headers) }
  } catch {
    return undefined
  }
}

/**
 * Does what one delivery says, in the worker's transaction, and settles it: a deployment goes
 * into the inbox (the same durable path as POST /v1/deployments, recorded by the same batches),
 * with its chain of commits to derive; a push's commits are stored; a failure status marks its
 * deployment failed; an alerting tool's incident is opened, resolved or reopened; anything else
 * is ignored with the reason.
 */
export async function handleDelivery(tx: Tx, waiting: WaitingDelivery): Promise<void> {
  const delivery = deliveryOf(waiting)
  if (delivery === undefined) {
    await settleDelivery(tx, waiting.id, { state: 'ignored', reason: 'the body is not JSON' })
    return
  }
  const mapping = waiting.mapping as IntegrationMapping
  const meaning = interpret(waiting.source, waiting.event, delivery, mapping)
  switch (meaning.outcome) {
    case 'ignored':
      await settleDelivery(tx, waiting.id, { state: 'ignored', reason: meaning.reason })
      return
    case 'record':
      await recordDeployment(tx, waiting, meaning)
      return
    case 'failure':
      await settleFailure(tx, waiting, meaning)
      return
    case 'push':
      await storePushOf(tx, waiting, meaning.push)
      return
    case 'incident':
      await settleIncident(
        tx,
        waiting,
        await applyIncidentState(tx, reported(waiting, meaning.subject), meaning),
      )
      return
    case 'alert-group':
      await settleIncident(
        tx,
        waiting,
        await applyAlertGroup(
          tx,
          reported(waiting, meaning.subject),
          meaning.alerts,
          meaning.groupResolvedAt,
        ),
      )
      return
  }
}

const reported = (waiting: WaitingDelivery, subject: IncidentSubject): ReportedIncident => ({
  workspaceId: waiting.workspaceId,
  integrationId: waiting.integrationId,
  source: waiting.source,
  ...subject,
})

/** An incident delivery: recorded, saying what it did to which incident, or ignored and why. */
function settleIncident(tx: Tx, waiting: WaitingDelivery, applied: IncidentApplied) {
  return settleDelivery(
    tx,
    waiting.id,
    applied.applied
      ? { state: 'recorded', reason: applied.summary }
      : { state: 'ignored', reason: applied.reason },
  )
}

async function recordDeployment(
  tx: Tx,
  waiting: WaitingDelivery,
  { deployment, senderDeploymentId, commitUnknown }: RecordOutcome,
): Promise<void> {
  const checked = validateDeployment(deployment, waiting.receivedAt, { commitMayBeUnknown: true })
  if (!checked.ok) {
    const fields = checked.errors.map(({ field, message }) => `${field} ${message}`).join('; ')
    await settleDelivery(tx, waiting.id, {
      state: 'ignored',
      reason: `the deployment it reports cannot be recorded: ${fields} (the integration's mapping can give a missing field)`,
    })
    return
  }
  const id = uuidv7()
  await insertIntoInbox(tx, [
    {
      id,
      workspaceId: waiting.workspaceId,
      receivedAt: waiting.receivedAt.toISOString(),
      deployment: checked.value,
      source: waiting.source,
    },
  ])
  await awaitCommitChain(tx, {
    deploymentId: id,
    workspaceId: waiting.workspaceId,
    repositoryKey: nameKey(checked.value.repositoryFullName),
  })
  await settleDelivery(tx, waiting.id, {
    state: 'recorded',
    deploymentId: id,
    senderDeploymentId: senderDeploymentId ?? null,
    // Said on the delivery as on the deployment: recorded, with its commit unknown, and why.
    reason:
      checked.value.commitHash === null
        ? `recorded with its commit unknown: ${commitUnknown ?? 'the sender named none'}`
        : null,
  })
  if (senderDeploymentId !== undefined) {
    await settleFailuresWaitingFor(tx, waiting, senderDeploymentId)
  }
}

/** git's `%s`: the message's first paragraph, its lines joined by spaces. */
function subjectOf(message: string): string {
  const [first = ''] = message
    .replace(/\r\n/g, '\n')
    .trim()
    .split(/\n\s*\n/)
  return first.replace(/\n/g, ' ')
}

async function storePushOf(tx: Tx, waiting: WaitingDelivery, push: Push): Promise<void> {
  await storePush(tx, {
    workspaceId: waiting.workspaceId,
    repositoryKey: nameKey(push.repositoryFullName),
    before: push.before,
    after: push.after,
    forced: push.forced,
    total: push.total,
    webUrl: push.webUrl,
    receivedAt: waiting.receivedAt,
    commits: push.commits.map((commit) => ({
      sha: commit.sha,
      committedAt: commit.committedAt,
      authoredAt: commit.authoredAt,
      subject: commitTextLine(subjectOf(commit.message)) ?? null,
      author: commit.author === null ? null : (commitTextLine(commit.author) ?? null),
      message: commit.message,
    })),
  })
  await settleDelivery(tx, waiting.id, { state: 'recorded', commitCount: push.commits.length })
}
