import { expect, test } from 'bun:test'
import { detectCi } from './ci-env.ts'
import { repositoryFromRemote, webUrlFromRemote } from './git-remote.ts'

const SHA = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'

test('GitHub Actions', () => {
  expect(
    detectCi({
      GITHUB_ACTIONS: 'true',
      GITHUB_SHA: SHA,
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_ACTOR: 'octocat',
    }),
  ).toEqual({
    provider: 'github-actions',
    commitHash: SHA,
    repositoryFullName: 'acme/shop',
    author: 'octocat',
    webUrl: 'https://github.com/acme/shop',
  })
})

test('GitLab CI, with a nested group', () => {
  expect(
    detectCi({
      GITLAB_CI: 'true',
      CI_COMMIT_SHA: SHA,
      CI_PROJECT_PATH: 'acme/platform/shop',
      GITLAB_USER_LOGIN: 'alice',
    }),
  ).toEqual({
    provider: 'gitlab-ci',
    commitHash: SHA,
    repositoryFullName: 'acme/platform/shop',
    author: 'alice',
  })
})

test('Buildkite: the repository comes from the remote URL', () => {
  expect(
    detectCi({
      BUILDKITE: 'true',
      BUILDKITE_COMMIT: SHA,
      BUILDKITE_REPO: 'git@github.com:acme/shop.git',
      BUILDKITE_BUILD_CREATOR: 'Bob Builder',
    }),
  ).toEqual({
    provider: 'buildkite',
    commitHash: SHA,
    repositoryFullName: 'acme/shop',
    author: 'Bob Builder',
    webUrl: 'https://github.com/acme/shop',
  })
})

test('Buildkite builds started at "HEAD" have no commit to report', () => {
  expect(
    detectCi({
      BUILDKITE: 'true',
      BUILDKITE_COMMIT: 'HEAD',
      BUILDKITE_REPO: 'https://github.com/acme/shop.git',
    }),
  ).toEqual({
    provider: 'buildkite',
    repositoryFullName: 'acme/shop',
    webUrl: 'https://github.com/acme/shop',
  })
})

test('CircleCI joins project user and name', () => {
  expect(
    detectCi({
      CIRCLECI: 'true',
      CIRCLE_SHA1: SHA,
      CIRCLE_PROJECT_USERNAME: 'acme',
      CIRCLE_PROJECT_REPONAME: 'shop',
      CIRCLE_USERNAME: 'carol',
    }),
  ).toEqual({
    provider: 'circleci',
    commitHash: SHA,
    repositoryFullName: 'acme/shop',
    author: 'carol',
  })
  expect(detectCi({ CIRCLECI: 'true', CIRCLE_PROJECT_REPONAME: 'shop' })).toEqual({
    provider: 'circleci',
  })
})

test("a CI's variables count only under its own flag, and blanks count as unset", () => {
  expect(detectCi({})).toEqual({})
  expect(detectCi({ GITHUB_SHA: SHA, GITHUB_REPOSITORY: 'acme/shop' })).toEqual({})
  expect(
    detectCi({ GITHUB_ACTIONS: 'true', GITHUB_SHA: ' ', GITHUB_REPOSITORY: 'acme/shop' }),
  ).toEqual({
    provider: 'github-actions',
    repositoryFullName: 'acme/shop',
    webUrl: 'https://github.com/acme/shop',
  })
})

test.each([
  ['git@github.com:acme/shop.git', 'acme/shop'],
  ['git@gitlab.com:acme/platform/shop.git', 'acme/platform/shop'],
  ['https://github.com/acme/shop.git', 'acme/shop'],
  ['https://github.com/acme/shop', 'acme/shop'],
  ['https://user@bitbucket.org/acme/shop.git/', 'acme/shop'],
  ['ssh://git@github.com:22/acme/shop.git', 'acme/shop'],
  ['git://example.com/acme/shop.git', 'acme/shop'],
])('remote %p is %p', (remote, repository) => {
  expect(repositoryFromRemote(remote)).toBe(repository)
})

test.each(['', 'shop', 'https://github.com/', 'https://github.com/shop.git', '/srv/git/shop'])(
  'remote %p names no owner/name',
  (remote) => {
    expect(repositoryFromRemote(remote)).toBeUndefined()
  },
)

test.each([
  ['git@github.com:acme/shop.git', 'https://github.com/acme/shop'],
  [
    'ssh://git@gitlab.example.com:2222/group/sub/shop.git',
    'https://gitlab.example.com/group/sub/shop',
  ],
  ['https://x-access-token:ghs_secret@github.com/acme/shop.git', 'https://github.com/acme/shop'],
  ['https://git.example.com:8443/acme/shop', 'https://git.example.com:8443/acme/shop'],
  ['http://bitbucket.org/acme/shop', 'https://bitbucket.org/acme/shop'],
])('remote %p is on the web at %p', (remote, webUrl) => {
  expect(webUrlFromRemote(remote)).toBe(webUrl)
})

test.each(['', 'shop', '/srv/git/shop', 'file:///srv/git/acme/shop.git'])(
  'remote %p has no web address',
  (remote) => {
    expect(webUrlFromRemote(remote)).toBeUndefined()
  },
)
