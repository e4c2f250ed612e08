import type { DeploymentStatus, PageCursor } from '@shiplog/schema'
import type { Sql } from '../client.ts'
import type { DeploymentJob } from '../deployment-job.ts'
import type { DeploymentFilters } from '../queries/deployments.ts'
import { instantAt, pageOf } from '../read/keyset.ts'
import { DEAD_LETTERS, RETRIES } from './engine.ts'
import { statusOfJob } from './status.ts'

const SIX_FRACTION_DIGITS = String.raw`(\.\d{6})\d+`

/** A deployment not recorded: in the inbox, waiting for a retry, or dead-lettered. */
interface UnrecordedJob {
  data: DeploymentJob
  createdOn: Date
  completedOn: Date | null
  retryCount: number
  output: { message?: string } | null
  sourceOutput: { message?: string } | null
  sourceRetryCount: number | null
  deployedAtMicros: string
}

/** One page of queued or failed deployments, newest `deployedAt` first, as receipts. */
export interface UnrecordedPage {
  statuses: DeploymentStatus[]
  next: PageCursor | null
}

/**
 * Lists a workspace's deployments not recorded yet (`queued`: in the inbox, or waiting in pg-boss
 * for a retry) or dead-lettered (`failed`), with the filters and keyset cursor of recorded
 * deployments.
 *
 * A deployment the worker holds is still listed: it takes, records and completes in one
 * transaction, so other sessions see it queued until the same commit makes it recorded
 * (status-continuity.test.ts polls both lists while a worker drains).
 *
 * Read-only SQL on the inbox and the engine's job table, because pg-boss's `findJobs` has no limit
 * or order and loaded every such job into memory: a worker outage with a large backlog could
 * exhaust the API. Postgres sorts with a bounded top-N; `state < 'active'` matches pg-boss's own
 * partial index of waiting jobs. Names are compared with Postgres' `lower(normalize())`, which
 * agrees with `nameKey` for everything but a few special-cased letters; they are kept as sent.
 */
export async function listUnrecordedDeployments(
  sql: Sql,
  query: DeploymentFilters & { status: 'queued' | 'failed' },
): Promise<UnrecordedPage> {
  const queue = query.status === 'queued' ? RETRIES : DEAD_LETTERS
  const field = (name: string) => sql`lower(normalize(j.data->'deployment'->>${name}, NFC))`
  const jobs = sql`
      select j.data, j.created_on, j.completed_on, j.retry_count, j.output, j.source_output,
             j.source_retry_count, t.deployed_at, (j.data->>'id')::uuid as id
        from pgboss.job j
        -- Jobs from before deployedAt was normalised may carry more than six fraction digits,
        -- which Postgres refuses; six are all it keeps anyway.
        cross join lateral (
          select regexp_replace(j.data->'deployment'->>'deployedAt', ${SIX_FRACTION_DIGITS}, ${'\\1'})::timestamptz
                 as deployed_at) t
       where j.name = ${queue} and j.state < 'active' and not j.blocked
         and j.data->>'workspaceId' = ${query.workspaceId}`
  const inbox = sql`
      select jsonb_build_object('id', i.id, 'workspaceId', i.workspace_id::text,
               'receivedAt', iso_utc(i.received_at), 'source', i.source,
               'deployment', jsonb_build_object(
                 'repositoryFullName', i.repository_full_name, 'environment', i.environment,
                 'app', i.app, 'version', i.version, 'commitHash', i.commit_hash,
                 'description', i.description, 'author', i.author,
                 'deployedAt', iso_utc(i.deployed_at), 'monorepoPath', i.monorepo_path)),
             i.received_at, null::timestamptz, 0, null::jsonb, null::jsonb, null::integer,
             i.deployed_at, i.id
        from deployment_inbox i
       where i.workspace_id = ${query.workspaceId}`
  const rows = await sql<UnrecordedJob[]>`
    select j.data, j.created_on as "createdOn", j.completed_on as "completedOn",
           j.retry_count as "retryCount", j.output, j.source_output as "sourceOutput",
           j.source_retry_count as "sourceRetryCount",
           ((extract(epoch from j.deployed_at) * 1000000)::bigint)::text as "deployedAtMicros"
      from (${jobs} ${query.status === 'queued' ? sql`union all ${inbox}` : sql``}) j
     where true
       ${query.appKey === undefined ? sql`` : sql`and ${field('app')} = ${query.appKey}`}
       ${query.environmentKey === undefined ? sql`` : sql`and ${field('environment')} = ${query.environmentKey}`}
       ${query.repositoryKey === undefined ? sql`` : sql`and ${field('repositoryFullName')} = ${query.repositoryKey}`}
       ${query.version === undefined ? sql`` : sql`and j.data->'deployment'->>'version' = ${query.version}`}
       ${query.commitPrefix === undefined ? sql`` : sql`and starts_with(j.data->'deployment'->>'commitHash', ${query.commitPrefix})`}
       ${query.since === undefined ? sql`` : sql`and j.deployed_at >= ${query.since}::text::timestamptz`}
       ${query.until === undefined ? sql`` : sql`and j.deployed_at < ${query.until}::text::timestamptz`}
       ${
         query.after === undefined
           ? sql``
           : sql`and (j.deployed_at, j.id) < (${instantAt(sql, query.after.deployedAtMicros)}, ${query.after.id}::uuid)`
       }
     order by j.deployed_at desc, j.id desc
     limit ${query.limit + 1}`
  const { page, next } = pageOf(rows, query.limit, (last) => ({
    deployedAtMicros: BigInt(last.deployedAtMicros),
    id: last.data.id,
  }))
  const failed = query.status === 'failed'
  return { statuses: page.map((job) => statusOfJob(job, failed)), next }
}
