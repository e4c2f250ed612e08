import type { CreatedDeployment, ShiplogClient } from './client.ts'
import { ShiplogError } from './errors.ts'
import type { NotifyPlan } from './notify-args.ts'

/** The receipt the deployment got, and whether an earlier run of the same job had reported it. */
export type Acceptance =
  | { kind: 'accepted'; created: CreatedDeployment }
  | { kind: 'earlier'; created: CreatedDeployment }
  | { kind: 'unseen' }

/** The API's answer to a key sent again with another body. */
const isKeyReusedElsewhere = (error: unknown) =>
  error instanceof ShiplogError &&
  error.status === 422 &&
  error.fieldErrors.length > 0 &&
  error.fieldErrors.every((fieldError) => fieldError.field === 'Idempotency-Key')

/**
 * Sends the deployment. A re-run of a CI job sends the first run's Idempotency-Key (`plan.rerun`):
 * with the same fields the API answers with the first run's receipt; with other fields (a GitLab
 * retry by someone else changes the author, a script may stamp its own --deployed-at) it refuses
 * the key, and the re-run records nothing new: `earlier` with the first run's deployment when one
 * of this version and commit is found, else `unseen`. Never an error: a re-run must not fail.
 */
export async function acceptDeployment(
  plan: NotifyPlan,
  client: ShiplogClient,
): Promise<Acceptance> {
  const { idempotencyKey } = plan
  try {
    const options = idempotencyKey === undefined ? {} : { idempotencyKey }
    return { kind: 'accepted', created: await client.createDeployment(plan.input, options) }
  } catch (error) {
    if (!plan.rerun || !isKeyReusedElsewhere(error)) throw error
  }
  const { app, environment, repositoryFullName, version, commitHash } = plan.input
  // Queued too: the first run may not have waited for the worker.
  for (const status of ['recorded', 'queued'] as const) {
    const query = { app, environment, repository: repositoryFullName, version, commitHash, status }
    const [earlier] = (await client.listDeployments({ ...query, limit: 1 })).data
    if (earlier) {
      const { id } = earlier
      const created = { id, location: client.receiptUrl(id), idempotencyKey: plan.rerun.key }
      return { kind: 'earlier', created }
    }
  }
  return { kind: 'unseen' }
}
