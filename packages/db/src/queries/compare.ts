import type { Sql } from '../client.ts'

/** A deployment of one side of a comparison, in brief. */
export interface ComparedDeployment {
  id: string
  version: string
  commitHash: string
  deployedAt: string
}

/** A commit delivered to one environment and not to the other. */
export interface WaitingCommit {
  sha: string
  subject: string | null
  author: string | null
  committedAt: string
  webUrl: string | null
}

/** What `from` has that `to` does not, for one application. */
export interface StreamComparison {
  /** The deployments of `from` newer than the latest one whose commit `to` has: newest first. */
  waiting: (ComparedDeployment & { listed: boolean; truncated: boolean })[]
  /** The walk met no deployment whose commit `to` has within `walk` deployments (or at all). */
  reachedLimit: boolean
  /** Commits delivered by the waiting deployments that `to` never delivered: newest first. */
  commits: WaitingCommit[]
}

/** How far a comparison reads, so one request stays an index walk of bounded size. */
export interface CompareLimits {
  /** Deployments of `from`, newest first, looked at for one whose commit `to` has. */
  walk: number
  /** Commits answered, newest first (one more is read, to tell there are more). */
  commits: number
}

/** The applications a name (and repository) names, and the two environments, by their keys. */
export interface CompareSides {
  applications: { id: string; app: string; repositoryFullName: string }[]
  from: { id: string; name: string } | undefined
  to: { id: string; name: string } | undefined
}

/** Looks up what a comparison names: applications_by_name, environments_unique_name. */
export async function findCompareSides(
  sql: Sql,
  workspaceId: string,
  names: { appKey: string; repositoryKey?: string; fromKey: string; toKey: string },
): Promise<CompareSides> {
  const [applications, environments] = await Promise.all([
    sql<CompareSides['applications']>`
      select a.id::text, a.name as app, r.full_name as "repositoryFullName"
        from applications a join repositories r on r.id = a.repository_id
       where a.workspace_id = ${workspaceId} and a.name_key = ${names.appKey}
         ${names.repositoryKey === undefined ? sql`` : sql`and r.full_name_key = ${names.repositoryKey}`}
       order by r.full_name_key`,
    sql<{ id: string; name: string; key: string }[]>`
      select id::text, name, name_key as key from environments
       where workspace_id = ${workspaceId} and name_key in (${names.fromKey}, ${names.toKey})`,
  ])
  const environment = (key: string) => {
    const found = environments.find((row) => row.key === key)
    return found && { id: found.id, name: found.name }
  }
  return {
    applications: [...applications],
    from: environment(names.fromKey),
    to: environment(names.toKey),
  }
}

/** What runs in an environment now: the latest deployment of its cell (deployment_cells_pkey). */
export async function currentDeployment(
  sql: Sql,
  workspaceId: string,
  applicationId: string,
  environmentId: string,
): Promise<ComparedDeployment | undefined> {
  const [row] = await sql<ComparedDeployment[]>`
    select latest_id::text as id, latest_version as version, latest_commit_hash as "commitHash",
           iso_utc(latest_deployed_at) as "deployedAt"
      from deployment_cells
     where workspace_id = ${workspaceId} and application_id = ${applicationId}
       and environment_id = ${environmentId}`
  return row
}

// Whether (application, environment) ran this commit, or a deployment of it delivered it in a
// commit list: scalar subqueries, so each stays an index probe (deployments_by_commit_prefix,
// then delivered_before's deployment_commits_by_sha) rather than a hash of the whole stream.
// 'infinity' and the largest id make delivered_before ask about every deployment there.
const hasCommit = (sql: Sql, sha: ReturnType<Sql>, app: string, env: string) => sql`(
  (select 1 from deployments t
    where left(t.commit_hash, 7) collate "C" = left(${sha}, 7) collate "C"
      and t.commit_hash = ${sha}
      and t.application_id = ${app} and t.environment_id = ${env} and t.voided_at is null
    limit 1) is not null
  or delivered_before(${sha}, ${app}::bigint, ${env}::bigint, 'infinity',
                      'ffffffff-ffff-ffff-ffff-ffffffffffff'))`

/**
 * What the deployments of `from` delivered that `to` does not have, for one application: from
 * the newest deployment of `from` back to the latest whose commit `to` has run or delivered (a
 * backward walk of deployments_unique_delivery, at most `walk` rows), then the commits the
 * deployments after it listed (their own lists and those of repeated deliveries), less every
 * commit `to` ran or delivered. Plans are checked in plans.test.ts.
 */
export async function compareStreams(
  sql: Sql,
  stream: { applicationId: string; fromId: string; toId: string },
  limits: CompareLimits,
): Promise<StreamComparison> {
  const { applicationId: app, fromId, toId } = stream
  const walked = await sql<(ComparedDeployment & { reached: boolean })[]>`
    select w.id, w.version, w.commit_hash as "commitHash", iso_utc(w.deployed_at) as "deployedAt",
           ${hasCommit(sql, sql`w.commit_hash`, app, toId)} as reached
      from (select d.id, d.version, d.commit_hash, d.deployed_at from deployments d
             where d.application_id = ${app} and d.environment_id = ${fromId}
               and d.voided_at is null
             order by d.deployed_at desc, d.id desc
             limit ${limits.walk}) w
     order by w.deployed_at desc, w.id desc`
  const base = walked.findIndex((deployment) => deployment.reached)
  const waiting = (base === -1 ? walked : walked.slice(0, base)).map(
    ({ reached: _, ...deployment }) => deployment,
  )
  const reachedLimit = base === -1 && walked.length === limits.walk
  if (waiting.length === 0) return { waiting: [], reachedLimit, commits: [] }
  const ids = waiting.map((deployment) => deployment.id)
  // The lists of each waiting deployment: its own, and those of deliveries that repeated it.
  const lists = await sql<{ owner: string; list: string; truncated: boolean }[]>`
    select given.id::text as owner, l.deployment_id::text as list, l.truncated
      from unnest(${ids}::uuid[]) as given(id)
      cross join lateral (
        select given.id as receipt
        union all
        select a.id from deployment_aliases a where a.deployment_id = given.id) receipts
      join deployment_commit_lists l on l.deployment_id = receipts.receipt`
  const listIds = lists.map((list) => list.list)
  const commits =
    listIds.length === 0
      ? []
      : await sql<WaitingCommit[]>`
    select c.sha, max(c.subject) as subject, max(c.author) as author,
           iso_utc(min(c.committed_at)) as "committedAt", max(l.web_url) as "webUrl"
      from deployment_commits c
      join deployment_commit_lists l on l.deployment_id = c.deployment_id
     where c.deployment_id = any(${listIds}::uuid[])
       and not ${hasCommit(sql, sql`c.sha`, app, toId)}
     group by c.sha
     order by min(c.committed_at) desc, c.sha
     limit ${limits.commits + 1}`
  return {
    waiting: waiting.map((deployment) => {
      const own = lists.filter((list) => list.owner === deployment.id)
      return {
        ...deployment,
        listed: own.length > 0,
        truncated: own.some((list) => list.truncated),
      }
    }),
    reachedLimit,
    commits: [...commits],
  }
}
