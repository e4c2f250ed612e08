import type { ShiplogClient } from './client.ts'
import { FLAG_OF_INCIDENT_FIELD, type IncidentPlan } from './incident-args.ts'
import { describeError, exitCodeFor, type Output } from './notify.ts'

/** The error as lines for a person reading the log, fields named by their flags. */
export const describeIncidentError = (error: unknown) =>
  describeError(error, FLAG_OF_INCIDENT_FIELD, 'incident')

/** Opens or resolves the incident; prints its id (the last line, for scripts); the exit code. */
export async function runIncident(
  plan: IncidentPlan,
  client: ShiplogClient,
  output: Output,
): Promise<number> {
  try {
    if (plan.command === 'open') {
      const incident = await client.openIncident(plan.input)
      output.out(
        `Incident opened in ${incident.environment} since ${incident.startedAt}: ${incident.title}`,
      )
      output.out(incident.id)
    } else {
      const incident = await client.changeIncident(plan.id, { resolvedAt: plan.resolvedAt })
      output.out(`Incident resolved at ${incident.resolvedAt}: ${incident.title}`)
      output.out(incident.id)
    }
    return 0
  } catch (error) {
    for (const line of describeIncidentError(error)) output.err(line)
    return exitCodeFor(error)
  }
}
