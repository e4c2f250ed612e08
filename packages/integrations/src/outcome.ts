/** The `POST /v1/deployments` body a delivery stands for; checked by the contract's validator. */
export type DeploymentBody = Record<string, string | null>

/**
 * What a delivery about a deployment means for Shiplog: a deployment to record; that a
 * deployment the sender reported failed (its own id for it, and the state that said so: what a
 * failure signal is made from); or nothing, with the reason in words a platform engineer can act on.
 */
export type DeliveryOutcome =
  | {
      outcome: 'record'
      deployment: DeploymentBody
      senderDeploymentId: string | undefined
      /** Why `deployment.commitHash` is null: the sender named no commit (never made up). */
      commitUnknown?: string
    }
  | { outcome: 'failure'; senderDeploymentId: string; state: string; at: string | undefined }
  | { outcome: 'ignored'; reason: string }

/** A delivery that lacks what every one of its kind carries: ignored, naming what it lacks. */
export function lacking(kind: string, fields: string[]): DeliveryOutcome {
  const named = `${fields.slice(0, -1).join(', ')} or ${fields.at(-1)}`
  return { outcome: 'ignored', reason: `not a ${kind} delivery: it lacks ${named}` }
}

/**
 * What a deployment's state says, the same for every sender: nothing yet for `success` (the
 * caller records the deployment); a failure of the sender's deployment for a state in
 * `failedStates`; any other state ignored, with the reason (`stateName` says where it stands).
 */
export function outcomeOfState(report: {
  stateName: string
  state: string
  failedStates: readonly string[]
  senderDeploymentId: string | undefined
  /** When the sender says the state was reached. */
  at: string | undefined
}): DeliveryOutcome | undefined {
  const { stateName, state } = report
  if (state === 'success') return undefined
  if (report.failedStates.includes(state)) {
    return {
      outcome: 'failure',
      senderDeploymentId: report.senderDeploymentId ?? '',
      state,
      at: report.at,
    }
  }
  return {
    outcome: 'ignored',
    reason: `${stateName} '${state}' is not a finished deployment: only 'success' records one`,
  }
}
