import { nameKey } from '@shiplog/schema'
import type { Tx } from '../client.ts'
import { type DeploymentJob, sourceOf } from '../deployment-job.ts'

type Row = Record<string, string>

// Sorting the keys gives every concurrent batch the same order for the names it creates, so two
// workers creating the same new names cannot deadlock.
function distinctSorted<T>(items: T[], keyOf: (item: T) => string): T[] {
  const byKey = new Map<string, T>()
  for (const item of items) if (!byKey.has(keyOf(item))) byKey.set(keyOf(item), item)
  return [...byKey.keys()].sort().map((key) => byKey.get(key) as T)
}

/** A table of names a deployment refers to, compared by `nameKey`: one per workspace and key. */
interface NameTable {
  table: string
  nameColumn: string
  keyColumn: string
  nameOf: (job: DeploymentJob) => string
}

const REPOSITORIES: NameTable = {
  table: 'repositories',
  nameColumn: 'full_name',
  keyColumn: 'full_name_key',
  nameOf: (job) => job.deployment.repositoryFullName,
}

const ENVIRONMENTS: NameTable = {
  table: 'environments',
  nameColumn: 'name',
  keyColumn: 'name_key',
  nameOf: (job) => job.deployment.environment,
}

// Timestamps are bound as text and cast by Postgres: postgres.js would send a value bound to a
// timestamptz parameter through JavaScript's Date, dropping the microseconds that tell two
// deployments apart.

/**
 * Creates the rows of the jobs' names if absent, keeping the first spelling of each, and returns
 * each job's row id. Existing rows are only read: `do nothing` takes no lock on them and writes no
 * new version, so batches naming the same repositories run side by side instead of queueing on
 * each other's row locks until commit, and a row that does not change leaves no dead tuple.
 */
async function ensureNames(
  tx: Tx,
  jobs: DeploymentJob[],
  { table, nameColumn, keyColumn, nameOf }: NameTable,
): Promise<(job: DeploymentJob) => string> {
  const keyOf = (job: DeploymentJob) => `${job.workspaceId}\u0000${nameKey(nameOf(job))}`
  const distinct = distinctSorted(jobs, keyOf)
  const workspaces = distinct.map((job) => job.workspaceId)
  const keys = distinct.map((job) => nameKey(nameOf(job)))
  // Read first: after the first deployments of a name, every batch finds all its names here.
  const found = await tx<Row[]>`
    select t.id::text, t.workspace_id::text, t.${tx(keyColumn)} as name_key
      from unnest(${workspaces}::bigint[], ${keys}::text[]) as given(workspace_id, name_key)
      join ${tx(table)} t on t.workspace_id = given.workspace_id and t.${tx(keyColumn)} = given.name_key`
  const ids = new Map(found.map((row) => [`${row.workspace_id}\u0000${row.name_key}`, row.id]))
  const missing = distinct.filter((job) => !ids.has(keyOf(job)))
  if (missing.length > 0) {
    // A name another batch creates at this moment waits for that batch (unique index), then is
    // read below; keys in sorted order, so two batches creating names never deadlock.
    await tx`
      insert into ${tx(table)} (workspace_id, ${tx(nameColumn)}, ${tx(keyColumn)})
      select * from unnest(
        ${missing.map((job) => job.workspaceId)}::bigint[],
        ${missing.map((job) => nameOf(job))}::text[],
        ${missing.map((job) => nameKey(nameOf(job)))}::text[])
      on conflict (workspace_id, ${tx(keyColumn)}) do nothing`
    const created = await tx<Row[]>`
      select t.id::text, t.workspace_id::text, t.${tx(keyColumn)} as name_key
        from unnest(${missing.map((job) => job.workspaceId)}::bigint[],
                    ${missing.map((job) => nameKey(nameOf(job)))}::text[]) as given(workspace_id, name_key)
        join ${tx(table)} t on t.workspace_id = given.workspace_id and t.${tx(keyColumn)} = given.name_key`
    for (const row of created) ids.set(`${row.workspace_id}\u0000${row.name_key}`, row.id)
  }
  return (job) => ids.get(keyOf(job)) as string
}

/**
 * Creates the jobs' applications if absent and returns each job's application id. An
 * application keeps the monorepo path of its latest deployment that named one, and that
 * deployment's instant (so a backfill older than it cannot replace the path); its row is written
 * once per batch when a later deployment names a path, never to restate what it holds.
 */
async function ensureApplications(
  tx: Tx,
  jobs: DeploymentJob[],
  repositoryIdOf: (job: DeploymentJob) => string,
): Promise<(job: DeploymentJob) => string> {
  const keyOf = (job: DeploymentJob) =>
    `${job.workspaceId}\u0000${repositoryIdOf(job)}\u0000${nameKey(job.deployment.app)}`
  const latestWithPath = new Map<string, DeploymentJob>()
  for (const job of jobs) {
    if (!job.deployment.monorepoPath) continue
    const latest = latestWithPath.get(keyOf(job))
    if (
      !latest ||
      Date.parse(job.deployment.deployedAt) >= Date.parse(latest.deployment.deployedAt)
    ) {
      latestWithPath.set(keyOf(job), job)
    }
  }
  const applications = distinctSorted(jobs, keyOf).map((first) => ({
    first,
    latestWithPath: latestWithPath.get(keyOf(first)),
  }))
  const given = () => tx`unnest(
      ${applications.map(({ first }) => first.workspaceId)}::bigint[],
      ${applications.map(({ first }) => repositoryIdOf(first))}::bigint[],
      ${applications.map(({ first }) => first.deployment.app)}::text[],
      ${applications.map(({ first }) => nameKey(first.deployment.app))}::text[],
      ${applications.map(({ latestWithPath }) => latestWithPath?.deployment.monorepoPath ?? null)}::text[],
      (${applications.map(({ latestWithPath }) => latestWithPath?.deployment.deployedAt ?? null)}::text[])::timestamptz[])
    as given(workspace_id, repository_id, name, name_key, monorepo_path, monorepo_path_deployed_at)`
  const find = () => tx<Row[]>`
    select a.id::text, a.workspace_id::text, a.repository_id::text, a.name_key
      from ${given()}
      join applications a on a.workspace_id = given.workspace_id
       and a.repository_id = given.repository_id and a.name_key = given.name_key`
  let rows = await find()
  if (rows.length < applications.length) {
    await tx`
      insert into applications (workspace_id, repository_id, name, name_key, monorepo_path, monorepo_path_deployed_at)
      select * from ${given()}
      on conflict (workspace_id, repository_id, name_key) do nothing`
    rows = await find()
  }
  if (latestWithPath.size > 0) {
    // Only a later path moves; ties keep the newer write, as the first insert would have.
    await tx`
      update applications a
         set monorepo_path = given.monorepo_path,
             monorepo_path_deployed_at = given.monorepo_path_deployed_at
        from ${given()}
       where a.workspace_id = given.workspace_id and a.repository_id = given.repository_id
         and a.name_key = given.name_key and given.monorepo_path is not null
         and given.monorepo_path_deployed_at >= coalesce(a.monorepo_path_deployed_at, '-infinity')
         and (a.monorepo_path, a.monorepo_path_deployed_at)
             is distinct from (given.monorepo_path, given.monorepo_path_deployed_at)`
  }
  const ids = new Map(
    rows.map((row) => [
      `${row.workspace_id}\u0000${row.repository_id}\u0000${row.name_key}`,
      row.id,
    ]),
  )
  return (job) => ids.get(keyOf(job)) as string
}

/** A job with the rows its deployment belongs to. */
interface PlacedJob {
  job: DeploymentJob
  applicationId: string
  environmentId: string
}

/**
 * Records a batch of deployment jobs with set-based SQL inside the caller's transaction:
 * repositories, environments and applications are created if absent (`on conflict do nothing`,
 * so concurrent first deployments of one new app create one app, and existing names are only read), then the deployments are inserted, skipping
 * any already recorded. Returns how many deployment rows were new.
 */
export async function recordDeployments(tx: Tx, batch: DeploymentJob[]): Promise<number> {
  if (batch.length === 0) return 0
  // Ids are UUIDv7, in arrival order: the first spelling of a new name is the earliest one.
  const jobs = [...batch].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const repositoryIdOf = await ensureNames(tx, jobs, REPOSITORIES)
  const environmentIdOf = await ensureNames(tx, jobs, ENVIRONMENTS)
  const applicationIdOf = await ensureApplications(tx, jobs, repositoryIdOf)
  const placed: PlacedJob[] = jobs.map((job) => ({
    job,
    applicationId: applicationIdOf(job),
    environmentId: environmentIdOf(job),
  }))

  const inserted = await tx<{ id: string }[]>`
    insert into deployments (id, workspace_id, application_id, environment_id, version, commit_hash,
                             description, author, deployed_at, monorepo_path, received_at, source)
    select * from unnest(
      ${jobs.map((job) => job.id)}::uuid[],
      ${jobs.map((job) => job.workspaceId)}::bigint[],
      ${placed.map((p) => p.applicationId)}::bigint[],
      ${placed.map((p) => p.environmentId)}::bigint[],
      ${jobs.map((job) => job.deployment.version)}::text[],
      ${jobs.map((job) => job.deployment.commitHash)}::text[],
      ${jobs.map((job) => job.deployment.description)}::text[],
      ${jobs.map((job) => job.deployment.author)}::text[],
      (${jobs.map((job) => job.deployment.deployedAt)}::text[])::timestamptz[],
      ${jobs.map((job) => job.deployment.monorepoPath)}::text[],
      (${jobs.map((job) => job.receivedAt)}::text[])::timestamptz[],
      ${jobs.map(sourceOf)}::text[])
    on conflict do nothing
    returning id`
  if (inserted.length < jobs.length) {
    const recorded = new Set(inserted.map((row) => row.id))
    await recordAliases(
      tx,
      placed.filter(({ job }) => !recorded.has(job.id)),
    )
  }
  return inserted.length
}

// Deliveries that repeated a recorded deployment keep their receipt id: it now names the earlier
// deployment, so `GET /v1/deployments/{id}` still answers for them.
async function recordAliases(tx: Tx, repeats: PlacedJob[]): Promise<void> {
  await tx`
    insert into deployment_aliases (id, deployment_id)
    select r.id, d.id
      from unnest(
        ${repeats.map(({ job }) => job.id)}::uuid[],
        ${repeats.map(({ job }) => job.workspaceId)}::bigint[],
        ${repeats.map((p) => p.applicationId)}::bigint[],
        ${repeats.map((p) => p.environmentId)}::bigint[],
        ${repeats.map(({ job }) => job.deployment.version)}::text[],
        ${repeats.map(({ job }) => job.deployment.commitHash)}::text[],
        (${repeats.map(({ job }) => job.deployment.deployedAt)}::text[])::timestamptz[])
        as r(id, workspace_id, application_id, environment_id, version, commit_hash, deployed_at)
      join deployments d on d.workspace_id = r.workspace_id and d.application_id = r.application_id
       and d.environment_id = r.environment_id and d.version = r.version
       and d.commit_hash is not distinct from r.commit_hash and d.deployed_at = r.deployed_at
     where d.id <> r.id
    on conflict (id) do nothing`
}
