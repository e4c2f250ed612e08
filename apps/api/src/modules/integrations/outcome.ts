/** The `POST /v1/deployments` body a delivery stands for; checked by the contract's validator. */
export type DeploymentBody = Record<string, string | null>

/**
 * What a delivery about a deployment means for Shiplog: a deployment to record; that a
 * deployment the sender reported failed (its own id for it, and the state that said so: what a
 * failure signal is made from); or nothing, with the reason in words a platform engineer can act on.
 */
export type DeliveryOutcome =
  | { outcome: 'record'; deployment: DeploymentBody }
  | { outcome: 'failure'; senderDeploymentId: string; state: string }
  | { outcome: 'ignored'; reason: string }
