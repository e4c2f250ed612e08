import { repositoryFromRemote } from './git-remote.ts'

/** What a CI's own variables say about the build being deployed. */
export interface CiContext {
  provider?: 'github-actions' | 'gitlab-ci' | 'buildkite' | 'circleci'
  commitHash?: string
  repositoryFullName?: string
  author?: string
}

export type Env = Readonly<Record<string, string | undefined>>

/** A CiContext before its undefined fields are dropped. */
type Found = { [Field in keyof CiContext]?: CiContext[Field] | undefined }

const COMMIT = /^[0-9a-f]{7,70}$/i

const value = (env: Env, name: string): string | undefined => {
  const found = env[name]?.trim()
  return found ? found : undefined
}

// Buildkite sets BUILDKITE_COMMIT to "HEAD" for builds started without one; sending that would
// only earn a 422, so anything that is not a SHA counts as not detected.
const commit = (sha: string | undefined) => (sha && COMMIT.test(sha) ? sha : undefined)

const joined = (owner: string | undefined, name: string | undefined) =>
  owner && name ? `${owner}/${name}` : undefined

/**
 * The commit, repository and author a supported CI exposes, read from its standard variables.
 * Each CI is recognised by the flag it always sets (`GITHUB_ACTIONS`, `GITLAB_CI`, `BUILDKITE`,
 * `CIRCLECI`), so stray variables from another tool are not mistaken for a build. Fields the CI
 * does not provide are left out.
 */
export function detectCi(env: Env): CiContext {
  let context: Found = {}
  if (value(env, 'GITHUB_ACTIONS') === 'true') {
    context = {
      provider: 'github-actions',
      commitHash: commit(value(env, 'GITHUB_SHA')),
      repositoryFullName: value(env, 'GITHUB_REPOSITORY'),
      author: value(env, 'GITHUB_ACTOR'),
    }
  } else if (value(env, 'GITLAB_CI') === 'true') {
    context = {
      provider: 'gitlab-ci',
      commitHash: commit(value(env, 'CI_COMMIT_SHA')),
      repositoryFullName: value(env, 'CI_PROJECT_PATH'),
      author: value(env, 'GITLAB_USER_LOGIN'),
    }
  } else if (value(env, 'BUILDKITE') === 'true') {
    const remote = value(env, 'BUILDKITE_REPO')
    context = {
      provider: 'buildkite',
      commitHash: commit(value(env, 'BUILDKITE_COMMIT')),
      repositoryFullName: remote === undefined ? undefined : repositoryFromRemote(remote),
      author: value(env, 'BUILDKITE_BUILD_CREATOR'),
    }
  } else if (value(env, 'CIRCLECI') === 'true') {
    context = {
      provider: 'circleci',
      commitHash: commit(value(env, 'CIRCLE_SHA1')),
      repositoryFullName: joined(
        value(env, 'CIRCLE_PROJECT_USERNAME'),
        value(env, 'CIRCLE_PROJECT_REPONAME'),
      ),
      author: value(env, 'CIRCLE_USERNAME'),
    }
  }
  return Object.fromEntries(
    Object.entries(context).filter(([, field]) => field !== undefined),
  ) as CiContext
}
