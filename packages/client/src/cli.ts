#!/usr/bin/env bun
import { consoleOutput } from './ci-output.ts'
import type { ShiplogClient } from './client.ts'
import { commandClient } from './command-client.ts'
import { parseEnvironmentsArgs, runEnvironments } from './environments.ts'
import { localCheckout } from './git-checkout.ts'
import { describeIncidentError, runIncident } from './incident.ts'
import { parseIncidentArgs } from './incident-args.ts'
import { describeError, exitCodeFor, type Output, runNotify } from './notify.ts'
import { planNotify } from './notify-args.ts'
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

const ENVIRONMENTS_USAGE = `Usage: shiplog environments list
       shiplog environments set <name> [--position <0-1000>] [--production | --not-production]
       shiplog environments set <name> --by-name

Lists the environments in pipeline order (position, production, name), or sets where one stands
(a key with the environments:write scope): lower positions come first. Until set, the name
decides: dev 10, test or qa 20, any other name 30, staging 40, production 50 (prod, production,
prd or live as a word of the name is production). --by-name puts it back to that rule.

  --url <url>              Shiplog API (default: $SHIPLOG_URL)
  --api-key <key>          API key (default: $SHIPLOG_API_KEY)

Exit codes: 0 done; 2 wrong flags or a request the API refused; 1 anything else.`

const USAGE = `Usage: shiplog notify --app <name> --environment <name> --version <label> [options]
       shiplog incident open|resolve … (shiplog incident --help)
       shiplog environments list|set … (shiplog environments --help)

Tells Shiplog that a version was deployed. Prints the deployment id and its URL.

  --url <url>                 Shiplog API (default: $SHIPLOG_URL)
  --api-key <key>             API key (default: $SHIPLOG_API_KEY; prefer the variable, since
                              flags show up in process lists)
  --app <name>                Application deployed (required)
  --environment <name>        Environment deployed to (required)
  --version <label>           Version deployed, e.g. a release tag (required)
  --commit <sha>              Commit deployed (default: from the CI, else the checkout's HEAD)
  --repository <owner/name>   Repository (default: from the CI, else the origin remote)
  --author <name>             Who deployed (default: from the CI, else git's user.name)
  --description <text>        Short note
  --deployed-at <time>        RFC 3339 time of the deployment (default: now)
  --monorepo-path <path>      App's directory in a monorepo
  --idempotency-key <key>     Makes a re-run of this step send nothing new (default: made from
                              the CI's run and job, so a re-run or retry records nothing new;
                              random outside a CI)
  --no-commits                Do not send the commits since the previous deployment (by default
                              they are read from the git checkout it runs in)
  --require-commits           Exit 3, once the deployment is recorded, when its commits could
                              not be read (by default a warning says why and the exit is 0)
  --fixes <incident-id>       This deployment fixes that incident: resolve it at its deployedAt
                              once recorded (a key with incidents:write)
  --wait                      Wait until the deployment is recorded
  --timeout <seconds>         How long --wait waits (default: 120)
  --retry-for <seconds>       How long to keep retrying while Shiplog answers 503 or 429 or
                              cannot be reached, e.g. through a database failover; each retry
                              prints a line (default: $SHIPLOG_RETRY_FOR, else 120; 0: no retry)

Commit, repository and author are read from GitHub Actions, GitLab CI, Jenkins, Azure
Pipelines, Bitbucket Pipelines, CircleCI or Buildkite, else from the git checkout.
Exit codes: 0 done; 2 wrong flags or a request the API refused as invalid (fix it, then re-run);
3 recorded, but --require-commits and its commits could not be read; 1 anything else (still
unavailable, rate limited or unreachable after --retry-for, deployment failed, timeout).`

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
  if (command === 'environments') return environments(rest)
  if (command !== 'notify') {
    console.error(`error: unknown command ${JSON.stringify(command)}\n\n${USAGE}`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(USAGE)
    return 0
  }
  const env = environment()
  const git = await localCheckout()
  let plan: Awaited<ReturnType<typeof planNotify>>
  try {
    plan = await planNotify(rest, env, git.read)
  } catch (error) {
    for (const line of describeError(error)) console.error(line)
    return exitCodeFor(error)
  }
  const output = consoleOutput(env)
  return runNotify(plan, commandClient(plan, output), output, git)
}

/**
 * A command besides notify: its usage, how it reads its arguments and tells what is wrong with
 * them, and what it does.
 */
interface Subcommand<Plan extends { url: string; apiKey: string }> {
  usage: string
  parse: (args: string[]) => Plan
  describe: (error: unknown) => string[]
  run: (plan: Plan, client: ShiplogClient, output: Output) => Promise<number>
}

async function subcommand<Plan extends { url: string; apiKey: string }>(
  args: string[],
  { usage, parse, describe, run }: Subcommand<Plan>,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage)
    return 0
  }
  let plan: Plan
  try {
    plan = parse(args)
  } catch (error) {
    for (const line of describe(error)) console.error(line)
    return exitCodeFor(error)
  }
  const output = consoleOutput(environment())
  return run(plan, commandClient(plan, output), output)
}

const incident = (args: string[]) =>
  subcommand(args, {
    usage: INCIDENT_USAGE,
    parse: (given) => parseIncidentArgs(given, environment(), new Date()),
    describe: describeIncidentError,
    run: runIncident,
  })

const environments = (args: string[]) =>
  subcommand(args, {
    usage: ENVIRONMENTS_USAGE,
    parse: (given) => parseEnvironmentsArgs(given, environment()),
    describe: (error) => describeError(error, {}, 'environments'),
    run: runEnvironments,
  })

exit(await main(commandArgs()))
