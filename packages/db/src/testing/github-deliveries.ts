// GitHub's deployment_status deliveries in the numbers a benchmark or a fault scenario sends: the
// shape and size (about 9 KB) of GitHub's own example (@octokit/webhooks-examples), the n-th a
// successful deployment of a commit of its own at a second of its own, so no two are one
// deployment. The large parts (repository, user) are serialised once: building a body is a string
// join, cheap enough for a load generator to do per request while the signatures are made before.
import { createHmac } from 'node:crypto'

/** The hook's id GitHub sends in X-GitHub-Hook-ID: one hook, so one id. */
const HOOK_ID = '123456789'
const ENVIRONMENTS = ['production', 'staging', 'canary'] as const

const nodeId = (kind: string, id: number) => btoa(`0${kind.length}:${kind}${id}`)

const userOf = (login: string, id: number) => ({
  login,
  id,
  node_id: nodeId('User', id),
  avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
  gravatar_id: '',
  url: `https://api.github.com/users/${login}`,
  html_url: `https://github.com/${login}`,
  followers_url: `https://api.github.com/users/${login}/followers`,
  following_url: `https://api.github.com/users/${login}/following{/other_user}`,
  gists_url: `https://api.github.com/users/${login}/gists{/gist_id}`,
  starred_url: `https://api.github.com/users/${login}/starred{/owner}{/repo}`,
  subscriptions_url: `https://api.github.com/users/${login}/subscriptions`,
  organizations_url: `https://api.github.com/users/${login}/orgs`,
  repos_url: `https://api.github.com/users/${login}/repos`,
  events_url: `https://api.github.com/users/${login}/events{/privacy}`,
  received_events_url: `https://api.github.com/users/${login}/received_events`,
  type: 'User',
  site_admin: false,
})

const OWNER = userOf('acme', 21031067)
const SENDER = JSON.stringify(userOf('release-bot', 21031068))

function repositoryOf(name: string, id: number): string {
  const fullName = `${OWNER.login}/${name}`
  const api = `https://api.github.com/repos/${fullName}`
  const urls = Object.fromEntries(
    [
      ['forks', ''],
      ['keys', '{/key_id}'],
      ['collaborators', '{/collaborator}'],
      ['teams', ''],
      ['hooks', ''],
      ['issue_events', '{/number}', 'issues/events'],
      ['events', ''],
      ['assignees', '{/user}'],
      ['branches', '{/branch}'],
      ['tags', ''],
      ['blobs', '{/sha}', 'git/blobs'],
      ['git_tags', '{/sha}', 'git/tags'],
      ['git_refs', '{/sha}', 'git/refs'],
      ['trees', '{/sha}', 'git/trees'],
      ['statuses', '/{sha}'],
      ['languages', ''],
      ['stargazers', ''],
      ['contributors', ''],
      ['subscribers', ''],
      ['subscription', ''],
      ['commits', '{/sha}'],
      ['git_commits', '{/sha}', 'git/commits'],
      ['comments', '{/number}'],
      ['issue_comment', '{/number}', 'issues/comments'],
      ['contents', '/{+path}'],
      ['compare', '/{base}...{head}'],
      ['merges', ''],
      ['archive', '/{archive_format}{/ref}', ''],
      ['downloads', ''],
      ['issues', '{/number}'],
      ['pulls', '{/number}'],
      ['milestones', '{/number}'],
      ['notifications', '{?since,all,participating}'],
      ['labels', '{/name}'],
      ['releases', '{/id}'],
      ['deployments', ''],
    ].map(([field, tail, path = field]) => [
      `${field}_url`,
      `${api}${path ? `/${path}` : ''}${tail}`,
    ]),
  )
  return JSON.stringify({
    id,
    node_id: nodeId('Repository', id),
    name,
    full_name: fullName,
    private: true,
    owner: OWNER,
    html_url: `https://github.com/${fullName}`,
    description: null,
    fork: false,
    url: api,
    ...urls,
    created_at: '2024-05-15T15:19:25Z',
    updated_at: '2026-11-02T09:20:41Z',
    pushed_at: '2026-11-02T09:20:52Z',
    git_url: `git://github.com/${fullName}.git`,
    ssh_url: `git@github.com:${fullName}.git`,
    clone_url: `https://github.com/${fullName}.git`,
    svn_url: `https://github.com/${fullName}`,
    homepage: null,
    size: 4_312,
    stargazers_count: 0,
    watchers_count: 0,
    language: 'TypeScript',
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: false,
    has_pages: false,
    forks_count: 0,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: 2,
    license: null,
    forks: 0,
    open_issues: 2,
    watchers: 0,
    default_branch: 'main',
  })
}

const REPOSITORIES = Array.from({ length: 10 }, (_, index) => ({
  fullName: `${OWNER.login}/service-${index}`,
  json: repositoryOf(`service-${index}`, 186_853_002 + index),
}))

/** A 40-digit commit SHA, distinct for each number. */
const shaOf = (n: number) => n.toString(16).padStart(10, '0').repeat(4)

/** GitHub's times: to the second, in UTC. */
const secondsOf = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/** Where the n-th deployment of a series goes, and what identifies it. */
export function deploymentStatusFacts(n: number, startMs: number) {
  const repository = REPOSITORIES[n % REPOSITORIES.length] as (typeof REPOSITORIES)[number]
  const sha = shaOf(n)
  return {
    repositoryFullName: repository.fullName,
    app: repository.fullName.split('/')[1] as string,
    environment: ENVIRONMENTS[n % ENVIRONMENTS.length] as string,
    commitHash: sha,
    version: sha.slice(0, 12),
    deployedAt: secondsOf(startMs + n * 1_000),
  }
}

/**
 * The body of the n-th delivery of a series starting at `startMs`: deployment_status `success` of
 * deployment 100000000 + n (its ref the SHA, so its version is the SHA's first 12 digits), one of
 * 10 repositories and 3 environments, created `n` seconds after the start.
 */
export function deploymentStatusSuccess(n: number, startMs: number): string {
  const facts = deploymentStatusFacts(n, startMs)
  const repository = REPOSITORIES[n % REPOSITORIES.length] as (typeof REPOSITORIES)[number]
  const api = `https://api.github.com/repos/${facts.repositoryFullName}`
  const deploymentId = 100_000_000 + n
  const statusId = 200_000_000 + n
  const deploymentUrl = `${api}/deployments/${deploymentId}`
  const at = facts.deployedAt
  const environment = facts.environment
  const status = `{"url":"${deploymentUrl}/statuses/${statusId}","id":${statusId},"node_id":"${nodeId('DeploymentStatus', statusId)}","state":"success","creator":${SENDER},"description":"","environment":"${environment}","target_url":"","created_at":"${at}","updated_at":"${at}","deployment_url":"${deploymentUrl}","repository_url":"${api}"}`
  const deployment = `{"url":"${deploymentUrl}","id":${deploymentId},"node_id":"${nodeId('Deployment', deploymentId)}","sha":"${facts.commitHash}","ref":"${facts.commitHash}","task":"deploy","payload":{},"original_environment":"${environment}","environment":"${environment}","description":null,"creator":${SENDER},"created_at":"${at}","updated_at":"${at}","statuses_url":"${deploymentUrl}/statuses","repository_url":"${api}"}`
  return `{"action":"created","deployment_status":${status},"deployment":${deployment},"repository":${repository.json},"sender":${SENDER}}`
}

/** The n-th delivery's GUID (X-GitHub-Delivery): distinct for each number, the same on redelivery. */
export const gitHubDeliveryIdOf = (n: number) =>
  `${(n >>> 16).toString(16).padStart(8, '0')}-${(n & 0xffff).toString(16).padStart(4, '0')}-4000-8000-${n.toString(16).padStart(12, '0')}`

/** X-Hub-Signature-256 as GitHub computes it: `sha256=` and the hex HMAC-SHA256 of the body. */
export const gitHubSignatureOf = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`

/** The headers GitHub sends with a delivery, its signature included. */
export function gitHubHeaders(
  deliveryId: string,
  signature: string,
  event = 'deployment_status',
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/7c3a1e3',
    'x-github-event': event,
    'x-github-delivery': deliveryId,
    'x-github-hook-id': HOOK_ID,
    'x-hub-signature-256': signature,
  }
}
