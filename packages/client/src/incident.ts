import type { ShiplogClient } from './client.ts'
import { ShiplogError } from './errors.ts'
import { FLAG_OF_INCIDENT_FIELD, type IncidentPlan } from './incident-args.ts'
import { exitCodeFor, type Output } from './notify.ts'
import { UsageError } from './notify-args.ts'
import { formatProblemLines } from './problem.ts'

const label = (field: string) => {
  const flag = FLAG_OF_INCIDENT_FIELD[field]
  return flag ? `${field} (${flag})` : field
}

/** The error as lines for a person reading the log. */
export function describeIncidentError(error: unknown): string[] {
  if (error instanceof ShiplogError) {
    const [first = '', ...rest] = formatProblemLines(error.problem, label)
    return [`error: ${first}`, ...rest]
  }
  if (error instanceof UsageError) {
    return [`error: ${error.message}`, 'Run `shiplog incident --help` for the flags.']
  }
  return [`error: ${error instanceof Error ? error.message : String(error)}`]
}

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
