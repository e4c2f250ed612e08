#!/usr/bin/env bun
import { createShiplogClient } from './client.ts'
import { describeIncidentError, runIncident } from './incident.ts'
import { parseIncidentArgs } from './incident-args.ts'
import { describeError, exitCodeFor, runNotify } from './notify.ts'
import { parseNotifyArgs } from './notify-args.ts'
import { commandArgs, environment, exit } from './runtime.ts'

const INCIDENT_USAGE = `Usage: shiplog incident open --environment <name> --title <text> [options]
       shiplog incident resolve <incident-id> [--at <time>]

Opens an incident, or resolves one (a key with the incidents:write scope). Prints the
incident's id on the last line.

  --url <url>              Shiplog API (default: $SHIPLOG_URL)
  --api-key <key>          API key (default: $SHIPLOG_API_KEY)
  --environment <name>     open: where it happened (required)
  --title <text>           open: what went wrong (required)
  --app <name>             open: the application it concerns
  --cause <deployment-id>  open: the recorded deployment that caused it
  --started-at <time>      open: RFC 3339 (default: the cause's deployedAt, or now)
  --at <time>              resolve: RFC 3339 (default: now)

Exit codes: 0 done; 2 wrong flags or a request the API refused; 1 anything else.`

const USAGE = `Usage: shiplog notify --app <name> --environment <name> --version <label> [options]
       shiplog incident open|resolve … (shiplog incident --help)

Tells Shiplog that a version was deployed. Prints the deployment id and its URL.

  --url <url>                 Shiplog API (default: $SHIPLOG_URL)
  --api-key <key>             API key (default: $SHIPLOG_API_KEY; prefer the variable, since
                              flags show up in process lists)
  --app <name>                Application deployed (required)
  --environment <name>        Environment deployed to (required)
  --version <label>           Version deployed, e.g. a release tag (required)
  --commit <sha>              Commit deployed (default: from the CI)
  --repository <owner/name>   Repository (default: from the CI)
  --author <name>             Who deployed (default: from the CI)
  --description <text>        Short note
  --deployed-at <time>        RFC 3339 time of the deployment (default: now)
  --monorepo-path <path>      App's directory in a monorepo
  --idempotency-key <key>     Makes a re-run of this step send nothing new (default: random)
  --no-commits                Do not send the commits since the previous deployment (by default
                              they are read from the git checkout it runs in)
  --fixes <incident-id>       This deployment fixes that incident: resolve it at its deployedAt
                              once recorded (a key with incidents:write)
  --wait                      Wait until the deployment is recorded
  --timeout <seconds>         How long --wait waits (default: 120)

Commit, repository and author are read from GitHub Actions, GitLab CI, Buildkite or CircleCI.
Exit codes: 0 done; 2 wrong flags or a request the API refused as invalid (fix it, then re-run);
1 anything else (rate limited after retries, API unreachable, deployment failed, timeout).`

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args
  if (command === undefined) {
    console.error(USAGE)
    return 2
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE)
    return 0
  }
  if (command === 'incident') return incident(rest)
  if (command !== 'notify') {
    console.error(`error: unknown command ${JSON.stringify(command)}\n\n${USAGE}`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(USAGE)
    return 0
  }
  let plan: ReturnType<typeof parseNotifyArgs>
  try {
    plan = parseNotifyArgs(rest, environment())
  } catch (error) {
    for (const line of describeError(error)) console.error(line)
    return exitCodeFor(error)
  }
  const client = createShiplogClient({ baseUrl: plan.url, apiKey: plan.apiKey })
  return runNotify(plan, client, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  })
}

async function incident(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(INCIDENT_USAGE)
    return 0
  }
  let plan: ReturnType<typeof parseIncidentArgs>
  try {
    plan = parseIncidentArgs(args, environment(), new Date())
  } catch (error) {
    for (const line of describeIncidentError(error)) console.error(line)
    return exitCodeFor(error)
  }
  const client = createShiplogClient({ baseUrl: plan.url, apiKey: plan.apiKey })
  return runIncident(plan, client, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  })
}

exit(await main(commandArgs()))
