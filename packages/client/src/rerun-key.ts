import { createHash } from 'node:crypto'
import type { DeploymentInput } from '@shiplog/schema'
import type { CiContext } from './ci-env.ts'

/** The Idempotency-Key a CI job sends by default, and the variables it was made from. */
export interface RerunKey {
  key: string
  /** e.g. `GITHUB_RUN_ID=42 GITHUB_JOB=deploy`, for the line a re-run prints. */
  from: string
}

/**
 * The same key for every run of one CI job reporting one application in one environment of one
 * repository, so a re-run or retry records nothing new; undefined when the CI does not name the
 * job (`ci.rerun`). Hashed, since ids and names can be long or non-ASCII and the API takes 1 to 255
 * printable ASCII characters.
 */
export function rerunKey(ci: CiContext, input: DeploymentInput): RerunKey | undefined {
  if (ci.provider === undefined || ci.rerun === undefined) return undefined
  const named = JSON.stringify([
    ci.provider,
    Object.entries(ci.rerun),
    input.repositoryFullName,
    input.app,
    input.environment,
  ])
  const digest = createHash('sha256').update(named).digest('hex')
  const from = Object.entries(ci.rerun)
    .map(([name, id]) => `${name}=${id}`)
    .join(' ')
  return { key: `${ci.provider}-${digest}`, from }
}
