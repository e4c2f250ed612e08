import type { Queryable, Sql, Tx } from '../client.ts'
import { type DeploymentJob, sourceOf } from '../deployment-job.ts'

// Instants go in as text and come out through iso_utc, so the microseconds a deployment was sent
// with survive the trip (postgres.js would round them through JavaScript's Date).
const AS_JOB = (sql: Queryable) => sql`
  id::text as id, workspace_id::text as "workspaceId", iso_utc(received_at) as "receivedAt",
  json_build_object(
    'repositoryFullName', repository_full_name, 'environment', environment, 'app', app,
    'version', version, 'commitHash', commit_hash, 'description', description, 'author', author,
    'deployedAt', iso_utc(deployed_at), 'monorepoPath', monorepo_path) as deployment, source`

/**
 * Puts accepted deployments in the inbox: one statement, so a group commit's rows are all there
 * or none (the API's commit check relies on it). The API's jobs say `api` or `cli`; an
 * integration's say its name (`github`, `gitlab`).
 */
export async function insertIntoInbox(sql: Queryable, jobs: DeploymentJob[]): Promise<void> {
  if (jobs.length === 0) return
  const fields = <K extends keyof DeploymentJob['deployment']>(key: K) =>
    jobs.map((job) => job.deployment[key])
  await sql`
    insert into deployment_inbox (id, workspace_id, received_at, deployed_at, repository_full_name,
                                  environment, app, version, commit_hash, description, author,
                                  monorepo_path, source)
    select * from unnest(
      ${jobs.map((job) => job.id)}::uuid[],
      ${jobs.map((job) => job.workspaceId)}::bigint[],
      (${jobs.map((job) => job.receivedAt)}::text[])::timestamptz[],
      (${fields('deployedAt')}::text[])::timestamptz[],
      ${fields('repositoryFullName')}::text[], ${fields('environment')}::text[],
      ${fields('app')}::text[], ${fields('version')}::text[], ${fields('commitHash')}::text[],
      ${fields('description')}::text[], ${fields('author')}::text[],
      ${fields('monorepoPath')}::text[], ${jobs.map(sourceOf)}::text[])`
}

/**
 * Takes up to `limit` deployments out of the inbox, oldest id first, inside the caller's
 * transaction: the rows are deleted, but until it commits every other session still sees them
 * (queued), and a rollback puts them back. Rows another batch holds are skipped.
 *
 * `after` starts the index walk past ids already taken: a deleted row stays in the index until
 * vacuum removes it, and while a snapshot older than the delete is open (a report, an idle
 * transaction, autovacuum off) vacuum cannot, so a walk from the first id would step over every
 * deployment taken since: a drain that slows as it goes.
 */
export async function takeFromInbox(
  tx: Tx,
  limit: number,
  after: string | undefined,
  share?: StreamShare,
): Promise<DeploymentJob[]> {
  // packages/db/sql/10_inbox.sql: the walk and its plan, whatever the inbox's statistics say.
  return tx<DeploymentJob[]>`
    select ${AS_JOB(tx)}
      from take_from_inbox(${after ?? null}::uuid, ${limit}::integer,
                           ${share?.index ?? 0}::integer, ${share?.of ?? 1}::integer)`
}

/**
 * One of `of` disjoint shares of the streams (application and environment) of the inbox. Batches
 * recording the same streams queue on the same read-model rows (a stream's cell and counts) from
 * the first one they write until commit; loops of a worker that take disjoint shares never do.
 */
export interface StreamShare {
  index: number
  of: number
}

/** One deployment still in the inbox, as its job, if it is the workspace's. */
export async function findInInbox(
  sql: Sql,
  workspaceId: string,
  id: string,
): Promise<DeploymentJob | undefined> {
  const [job] = await sql<DeploymentJob[]>`
    select ${AS_JOB(sql)} from deployment_inbox
     where id = ${id}::uuid and workspace_id = ${workspaceId}`
  return job
}

/** Whether a deployment id was accepted: in the inbox, recorded, or repeated an earlier one. */
export async function wasAccepted(sql: Sql, id: string): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    select exists (select 1 from deployment_inbox where id = ${id}::uuid)
        or exists (select 1 from deployments where id = ${id}::uuid)
        or exists (select 1 from deployment_aliases where id = ${id}::uuid) as found`
  return row?.found ?? false
}

/** How many deployments wait in the inbox (for metrics). */
export async function inboxDepth(sql: Sql): Promise<number> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from deployment_inbox`
  return row?.count ?? 0
}

/**
 * Vacuums the inbox, so the pages its taken rows leave are reused. Skipped when another vacuum
 * holds it; it cannot free rows a snapshot still sees, and needs the table's owner.
 */
export async function vacuumInbox(sql: Sql): Promise<void> {
  await sql`vacuum (skip_locked) deployment_inbox`
}
