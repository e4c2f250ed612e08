import { expect, test } from 'bun:test'
import { detectCi } from './ci-env.ts'

const SHA = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'

/** A CI's variables for a first run, and those it changes when that job is re-run or retried. */
interface CiCase {
  name: string
  first: Record<string, string>
  retry: Record<string, string>
  context: Record<string, string>
  rerun: Record<string, string>
}

// Each CI as it sets its variables (from each CI's documentation): the ids a re-run keeps must
// come out the same.
const CIS: CiCase[] = [
  {
    name: 'GitHub Actions: Re-run jobs',
    first: {
      GITHUB_ACTIONS: 'true',
      GITHUB_SHA: SHA,
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_ACTOR: 'octocat',
      GITHUB_RUN_ID: '8812345678',
      GITHUB_RUN_NUMBER: '41',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_JOB: 'deploy',
      GITHUB_WORKFLOW: 'Release',
    },
    retry: { GITHUB_RUN_ATTEMPT: '2', GITHUB_TRIGGERING_ACTOR: 'hubot' },
    context: {
      repositoryFullName: 'acme/shop',
      author: 'octocat',
      webUrl: 'https://github.com/acme/shop',
    },
    rerun: { GITHUB_RUN_ID: '8812345678', GITHUB_JOB: 'deploy' },
  },
  {
    name: 'GitLab CI: Retry',
    first: {
      GITLAB_CI: 'true',
      CI_COMMIT_SHA: SHA,
      CI_PROJECT_PATH: 'acme/platform/shop',
      CI_PROJECT_URL: 'https://gitlab.com/acme/platform/shop',
      GITLAB_USER_LOGIN: 'alice',
      CI_PIPELINE_ID: '1200345',
      CI_JOB_ID: '7700001',
      CI_JOB_NAME: 'record-deployment',
    },
    retry: { CI_JOB_ID: '7700009', GITLAB_USER_LOGIN: 'bob' },
    context: {
      repositoryFullName: 'acme/platform/shop',
      author: 'alice',
      webUrl: 'https://gitlab.com/acme/platform/shop',
    },
    rerun: { CI_PIPELINE_ID: '1200345', CI_JOB_NAME: 'record-deployment' },
  },
  {
    name: 'Jenkins: a retry block',
    first: {
      JENKINS_URL: 'https://jenkins.acme.example/',
      BUILD_TAG: 'jenkins-shop-release-57',
      BUILD_NUMBER: '57',
      BUILD_URL: 'https://jenkins.acme.example/job/shop-release/57/',
      GIT_COMMIT: SHA,
      GIT_URL: 'git@github.com:acme/shop.git',
      STAGE_NAME: 'Deploy',
    },
    retry: {},
    context: { repositoryFullName: 'acme/shop', webUrl: 'https://github.com/acme/shop' },
    rerun: {
      JENKINS_URL: 'https://jenkins.acme.example/',
      BUILD_TAG: 'jenkins-shop-release-57',
      STAGE_NAME: 'Deploy',
    },
  },
  {
    name: 'Azure Pipelines: Rerun failed jobs, Azure Repos',
    first: {
      TF_BUILD: 'True',
      BUILD_SOURCEVERSION: SHA,
      BUILD_REPOSITORY_PROVIDER: 'TfsGit',
      BUILD_REPOSITORY_NAME: 'shop',
      BUILD_REPOSITORY_URI: 'https://acme@dev.azure.com/acme/platform/_git/shop',
      BUILD_REQUESTEDFOR: 'Ada Lovelace',
      BUILD_BUILDID: '4411',
      SYSTEM_STAGENAME: 'Production',
      SYSTEM_PHASENAME: 'Deploy',
      SYSTEM_JOBNAME: '__default',
      SYSTEM_JOBID: '12f1170f-54f2-53f3-20dd-22fc7dff55f9',
      SYSTEM_JOBATTEMPT: '1',
    },
    retry: { SYSTEM_JOBID: '0b8b1b7f-6f9e-5f2e-8e5c-3a0f5c8e9d11', SYSTEM_JOBATTEMPT: '2' },
    context: {
      repositoryFullName: 'acme/platform/shop',
      author: 'Ada Lovelace',
      webUrl: 'https://dev.azure.com/acme/platform/_git/shop',
    },
    rerun: {
      BUILD_BUILDID: '4411',
      SYSTEM_JOBNAME: '__default',
      SYSTEM_STAGENAME: 'Production',
      SYSTEM_PHASENAME: 'Deploy',
    },
  },
  {
    name: 'Bitbucket Pipelines: Rerun failed steps',
    first: {
      CI: 'true',
      BITBUCKET_BUILD_NUMBER: '311',
      BITBUCKET_COMMIT: SHA,
      BITBUCKET_REPO_FULL_NAME: 'acme/shop',
      BITBUCKET_GIT_HTTP_ORIGIN: 'http://bitbucket.org/acme/shop',
      BITBUCKET_STEP_UUID: '{7a4d6e9e-3f2b-4b8e-9c1e-2b8f0c6d5a11}',
      BITBUCKET_STEP_RUN_NUMBER: '1',
    },
    retry: { BITBUCKET_STEP_RUN_NUMBER: '2' },
    context: { repositoryFullName: 'acme/shop', webUrl: 'https://bitbucket.org/acme/shop' },
    rerun: {
      BITBUCKET_BUILD_NUMBER: '311',
      BITBUCKET_STEP_UUID: '{7a4d6e9e-3f2b-4b8e-9c1e-2b8f0c6d5a11}',
    },
  },
  {
    name: 'CircleCI: Rerun workflow from failed',
    first: {
      CIRCLECI: 'true',
      CIRCLE_SHA1: SHA,
      CIRCLE_PROJECT_USERNAME: 'acme',
      CIRCLE_PROJECT_REPONAME: 'shop',
      CIRCLE_REPOSITORY_URL: 'git@github.com:acme/shop.git',
      CIRCLE_USERNAME: 'carol',
      CIRCLE_WORKFLOW_ID: '5b7c1a52-2f0e-4c8e-a0e6-1e7f3c2d9a10',
      CIRCLE_WORKFLOW_WORKSPACE_ID: '5b7c1a52-2f0e-4c8e-a0e6-1e7f3c2d9a10',
      CIRCLE_BUILD_NUM: '901',
      CIRCLE_JOB: 'record-deployment',
    },
    retry: { CIRCLE_WORKFLOW_ID: '9e0d2b61-7c4a-4f1b-b3d2-6a5e8f0c1b22', CIRCLE_BUILD_NUM: '905' },
    context: {
      repositoryFullName: 'acme/shop',
      author: 'carol',
      webUrl: 'https://github.com/acme/shop',
    },
    rerun: {
      CIRCLE_WORKFLOW_WORKSPACE_ID: '5b7c1a52-2f0e-4c8e-a0e6-1e7f3c2d9a10',
      CIRCLE_JOB: 'record-deployment',
    },
  },
  {
    name: 'Buildkite: Retry',
    first: {
      BUILDKITE: 'true',
      BUILDKITE_COMMIT: SHA,
      BUILDKITE_REPO: 'git@github.com:acme/shop.git',
      BUILDKITE_BUILD_CREATOR: 'Grace Hopper',
      BUILDKITE_BUILD_ID: '0190f3c4-5a1b-4c6d-8e9f-0a1b2c3d4e5f',
      BUILDKITE_STEP_ID: '0190f3c4-6b2c-4d7e-9f0a-1b2c3d4e5f60',
      BUILDKITE_JOB_ID: '0190f3c4-7c3d-4e8f-a01b-2c3d4e5f6071',
      BUILDKITE_RETRY_COUNT: '0',
      BUILDKITE_LABEL: ':rocket: Record the deployment',
    },
    retry: { BUILDKITE_JOB_ID: '0190f3c5-8d4e-4f90-b12c-3d4e5f607182', BUILDKITE_RETRY_COUNT: '1' },
    context: {
      repositoryFullName: 'acme/shop',
      author: 'Grace Hopper',
      webUrl: 'https://github.com/acme/shop',
    },
    rerun: {
      BUILDKITE_BUILD_ID: '0190f3c4-5a1b-4c6d-8e9f-0a1b2c3d4e5f',
      BUILDKITE_STEP_ID: '0190f3c4-6b2c-4d7e-9f0a-1b2c3d4e5f60',
    },
  },
]

test.each(CIS)('$name keeps the ids a re-run keeps, and reads the build', (ci) => {
  const first = detectCi(ci.first)
  expect(first.provider).toBeDefined()
  expect(first).toEqual({
    provider: first.provider,
    commitHash: SHA,
    ...ci.context,
    rerun: ci.rerun,
  })
  expect(detectCi({ ...ci.first, ...ci.retry }).rerun).toEqual(ci.rerun)
})

test('without the ids that name the job, there is no rerun identity', () => {
  expect(
    detectCi({ GITHUB_ACTIONS: 'true', GITHUB_RUN_ID: '1', GITHUB_SHA: SHA }).rerun,
  ).toBeUndefined()
  expect(detectCi({ GITLAB_CI: 'true', CI_JOB_ID: '7' }).rerun).toBeUndefined()
})

test('Azure Pipelines on a GitHub repository names it owner/name', () => {
  const azure = detectCi({
    TF_BUILD: 'True',
    BUILD_REPOSITORY_PROVIDER: 'GitHub',
    BUILD_REPOSITORY_NAME: 'acme/shop',
    BUILD_REPOSITORY_URI: 'https://github.com/acme/shop',
  })
  expect(azure).toEqual({
    provider: 'azure-pipelines',
    repositoryFullName: 'acme/shop',
    webUrl: 'https://github.com/acme/shop',
  })
})

test('Buildkite names the step by its key or label when it has no id', () => {
  const rerun = detectCi({ BUILDKITE: 'true', BUILDKITE_BUILD_ID: 'b1', BUILDKITE_LABEL: 'Deploy' })
  expect(rerun.rerun).toEqual({ BUILDKITE_BUILD_ID: 'b1', BUILDKITE_LABEL: 'Deploy' })
})
