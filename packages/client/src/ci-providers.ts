// The CIs `shiplog notify` reads, one entry each: how it is recognised, where it keeps the
// commit, repository and author, and which of its ids stay the same when a job is re-run (the
// retry semantics are written beside each; docs/pipelines.md has the same table).
import { repositoryFromRemote, webUrlFromRemote } from './git-remote.ts'

export type CiProvider =
  | 'github-actions'
  | 'gitlab-ci'
  | 'jenkins'
  | 'azure-pipelines'
  | 'bitbucket-pipelines'
  | 'circleci'
  | 'buildkite'

type Env = Readonly<Record<string, string | undefined>>

/** What one CI's variables say; undefined fields are dropped by `detectCi`. */
interface Read {
  commitHash: string | undefined
  repositoryFullName: string | undefined
  author: string | undefined
  /** The repository's web address, for links to its commits. */
  webUrl: string | undefined
  rerun: Record<string, string> | undefined
}

interface Provider {
  name: CiProvider
  detects(env: Env): boolean
  read(env: Env): Read
}

const COMMIT = /^[0-9a-f]{7,70}$/i

const value = (env: Env, name: string): string | undefined => {
  const found = env[name]?.trim()
  return found ? found : undefined
}

// Buildkite sets BUILDKITE_COMMIT to "HEAD" for builds started without one; sending that would
// only earn a 422, so anything that is not a SHA counts as not detected.
const commit = (sha: string | undefined) => (sha && COMMIT.test(sha) ? sha : undefined)

const remote = (url: string | undefined) =>
  url === undefined ? undefined : repositoryFromRemote(url)
const web = (url: string | undefined) => (url === undefined ? undefined : webUrlFromRemote(url))

/**
 * The variables that name a job across its re-runs: one of each group of `required` names (the
 * first set), and each of `optional` that is set. Undefined unless every group has one.
 */
function rerunIds(
  env: Env,
  required: string[][],
  optional: string[] = [],
): Record<string, string> | undefined {
  const ids: Record<string, string> = {}
  for (const group of required) {
    const name = group.find((candidate) => value(env, candidate) !== undefined)
    if (name === undefined) return undefined
    ids[name] = value(env, name) as string
  }
  for (const name of optional) {
    const found = value(env, name)
    if (found !== undefined) ids[name] = found
  }
  return ids
}

/** Azure Repos URLs name the repository `org/project/_git/repo`; the rest are owner/name. */
function azureRepository(env: Env): string | undefined {
  const provider = value(env, 'BUILD_REPOSITORY_PROVIDER')
  if (provider && /^(GitHub|GitHubEnterprise|Bitbucket)$/i.test(provider)) {
    return value(env, 'BUILD_REPOSITORY_NAME')
  }
  return remote(value(env, 'BUILD_REPOSITORY_URI')?.replace('/_git/', '/'))
}

export const CI_PROVIDERS: Provider[] = [
  {
    // "Re-run jobs" keeps GITHUB_RUN_ID and raises GITHUB_RUN_ATTEMPT; GITHUB_ACTOR stays the
    // run's actor (the re-runner is GITHUB_TRIGGERING_ACTOR).
    name: 'github-actions',
    detects: (env) => value(env, 'GITHUB_ACTIONS') === 'true',
    read: (env) => ({
      commitHash: commit(value(env, 'GITHUB_SHA')),
      repositoryFullName: value(env, 'GITHUB_REPOSITORY'),
      author: value(env, 'GITHUB_ACTOR'),
      webUrl: web(
        value(env, 'GITHUB_REPOSITORY') &&
          `${value(env, 'GITHUB_SERVER_URL') ?? 'https://github.com'}/${value(env, 'GITHUB_REPOSITORY')}`,
      ),
      rerun: rerunIds(env, [['GITHUB_RUN_ID'], ['GITHUB_JOB']]),
    }),
  },
  {
    // "Retry" makes a new job (new CI_JOB_ID) in the same pipeline (same CI_PIPELINE_ID) under
    // the same CI_JOB_NAME; GITLAB_USER_LOGIN becomes whoever retried it.
    name: 'gitlab-ci',
    detects: (env) => value(env, 'GITLAB_CI') === 'true',
    read: (env) => ({
      commitHash: commit(value(env, 'CI_COMMIT_SHA')),
      repositoryFullName: value(env, 'CI_PROJECT_PATH'),
      author: value(env, 'GITLAB_USER_LOGIN'),
      webUrl: web(value(env, 'CI_PROJECT_URL')),
      rerun: rerunIds(env, [['CI_PIPELINE_ID'], ['CI_JOB_NAME']]),
    }),
  },
  {
    // Rebuild, Replay and "Restart from stage" start a new build (new BUILD_NUMBER, so a new
    // BUILD_TAG); only a `retry` block inside the build keeps it. The author is git's.
    name: 'jenkins',
    detects: (env) =>
      value(env, 'JENKINS_URL') !== undefined && value(env, 'BUILD_TAG') !== undefined,
    read: (env) => ({
      commitHash: commit(value(env, 'GIT_COMMIT')),
      repositoryFullName: remote(value(env, 'GIT_URL')),
      author: undefined,
      webUrl: web(value(env, 'GIT_URL')),
      rerun: rerunIds(env, [['JENKINS_URL'], ['BUILD_TAG']], ['STAGE_NAME']),
    }),
  },
  {
    // "Rerun failed jobs" keeps BUILD_BUILDID and the stage, phase and job names, and raises
    // SYSTEM_JOBATTEMPT; SYSTEM_JOBID names one attempt, so it is not used.
    name: 'azure-pipelines',
    detects: (env) => value(env, 'TF_BUILD')?.toLowerCase() === 'true',
    read: (env) => ({
      commitHash: commit(value(env, 'BUILD_SOURCEVERSION')),
      repositoryFullName: azureRepository(env),
      author: value(env, 'BUILD_REQUESTEDFOR'),
      webUrl: web(value(env, 'BUILD_REPOSITORY_URI')),
      rerun: rerunIds(
        env,
        [['BUILD_BUILDID'], ['SYSTEM_JOBNAME']],
        ['SYSTEM_STAGENAME', 'SYSTEM_PHASENAME'],
      ),
    }),
  },
  {
    // "Rerun failed steps" keeps BITBUCKET_BUILD_NUMBER and the step's BITBUCKET_STEP_UUID and
    // raises BITBUCKET_STEP_RUN_NUMBER; rerunning the whole pipeline is a new build number.
    name: 'bitbucket-pipelines',
    detects: (env) => value(env, 'BITBUCKET_BUILD_NUMBER') !== undefined,
    read: (env) => ({
      commitHash: commit(value(env, 'BITBUCKET_COMMIT')),
      repositoryFullName: value(env, 'BITBUCKET_REPO_FULL_NAME'),
      author: undefined,
      webUrl: web(value(env, 'BITBUCKET_GIT_HTTP_ORIGIN')),
      rerun: rerunIds(env, [['BITBUCKET_BUILD_NUMBER'], ['BITBUCKET_STEP_UUID']]),
    }),
  },
  {
    // "Rerun workflow from failed" makes a new workflow (new CIRCLE_WORKFLOW_ID, new
    // CIRCLE_BUILD_NUM) sharing the first one's CIRCLE_WORKFLOW_WORKSPACE_ID.
    name: 'circleci',
    detects: (env) => value(env, 'CIRCLECI') === 'true',
    read: (env) => {
      const owner = value(env, 'CIRCLE_PROJECT_USERNAME')
      const name = value(env, 'CIRCLE_PROJECT_REPONAME')
      return {
        commitHash: commit(value(env, 'CIRCLE_SHA1')),
        repositoryFullName: owner && name ? `${owner}/${name}` : undefined,
        author: value(env, 'CIRCLE_USERNAME'),
        webUrl: web(value(env, 'CIRCLE_REPOSITORY_URL')),
        rerun: rerunIds(env, [['CIRCLE_WORKFLOW_WORKSPACE_ID'], ['CIRCLE_JOB']]),
      }
    },
  },
  {
    // A retried job is a new job (new BUILDKITE_JOB_ID, BUILDKITE_RETRY_COUNT raised) of the same
    // build and step (BUILDKITE_BUILD_ID, BUILDKITE_STEP_ID); a rebuild is a new build.
    name: 'buildkite',
    detects: (env) => value(env, 'BUILDKITE') === 'true',
    read: (env) => ({
      commitHash: commit(value(env, 'BUILDKITE_COMMIT')),
      repositoryFullName: remote(value(env, 'BUILDKITE_REPO')),
      author: value(env, 'BUILDKITE_BUILD_CREATOR'),
      webUrl: web(value(env, 'BUILDKITE_REPO')),
      rerun: rerunIds(
        env,
        [['BUILDKITE_BUILD_ID'], ['BUILDKITE_STEP_ID', 'BUILDKITE_STEP_KEY', 'BUILDKITE_LABEL']],
        ['BUILDKITE_PARALLEL_JOB'],
      ),
    }),
  },
]
