import { CI_PROVIDERS, type CiProvider } from './ci-providers.ts'

export type { CiProvider } from './ci-providers.ts'

/** What a CI's own variables say about the build being deployed. */
export interface CiContext {
  provider?: CiProvider
  commitHash?: string
  repositoryFullName?: string
  author?: string
  /** The repository's web address (https), for links to its commits. */
  webUrl?: string
  /**
   * The CI's variables (name and value) that name this job of this run and stay the same when it
   * is re-run or retried (never an attempt number): what the default Idempotency-Key is made of.
   * Left out when the CI does not set them all.
   */
  rerun?: Record<string, string>
}

export type Env = Readonly<Record<string, string | undefined>>

/**
 * The commit, repository and author a supported CI exposes, read from its standard variables,
 * and what names the job across re-runs. Each CI is recognised by a variable it always sets
 * (`GITHUB_ACTIONS`, `GITLAB_CI`, `JENKINS_URL`, `TF_BUILD`, `BITBUCKET_BUILD_NUMBER`, `CIRCLECI`,
 * `BUILDKITE`), so stray variables from another tool are not mistaken for a build. Fields the CI
 * does not provide are left out.
 */
export function detectCi(env: Env): CiContext {
  const provider = CI_PROVIDERS.find((candidate) => candidate.detects(env))
  if (!provider) return {}
  const found = { provider: provider.name, ...provider.read(env) }
  return Object.fromEntries(
    Object.entries(found).filter(([, field]) => field !== undefined),
  ) as CiContext
}
