import type { DeploymentJob, PageCursor } from '@shiplog/schema'
import type { Sql } from '../client.ts'
import { DEPLOYMENTS_DEAD_LETTER_QUEUE, DEPLOYMENTS_QUEUE } from '../queue.ts'
import type { DeploymentFilters } from './deployments.ts'
import { instantAt, pageOf } from './keyset.ts'

const SIX_FRACTION_DIGITS = String.raw`(\.\d{6})\d+`

/** A deployment the queue still holds: waiting or retrying, or dead-lettered. */
export interface UnrecordedJob {
  data: DeploymentJob
  createdOn: Date
  completedOn: Date | null
  retryCount: number
  output: { message?: string } | null
  sourceOutput: { message?: string } | null
  sourceRetryCount: number | null
  deployedAtMicros: string
}

/** One page of queued or failed deployments, newest `deployedAt` first. */
export interface UnrecordedPage {
  jobs: UnrecordedJob[]
  next: PageCursor | null
}

/**
 * Lists a workspace's deployments still in the queue (`queued`: waiting or retrying) or
 * dead-lettered (`failed`), with the filters and keyset cursor of recorded deployments.
 *
 * Read-only SQL on pg-boss's job table, because its `findJobs` has no limit or order and loaded
 * every such job into memory: a worker outage with a large backlog could exhaust the API. A job
 * the worker holds is still listed: it fetches, records and completes in one transaction, so
 * other sessions see the job waiting until the same commit that makes the deployment recorded
 * (status-continuity.test.ts polls both lists while a worker drains). Here
 * Postgres sorts with a bounded top-N, and `state < 'active'` matches pg-boss's own partial index
 * of waiting jobs. Names are compared with Postgres' `lower(normalize())`, which agrees with
 * `nameKey` for everything but a few special-cased letters; jobs carry names as sent.
 */
export async function listUnrecordedDeployments(
  sql: Sql,
  query: DeploymentFilters & { status: 'queued' | 'failed' },
): Promise<UnrecordedPage> {
  const queue = query.status === 'queued' ? DEPLOYMENTS_QUEUE : DEPLOYMENTS_DEAD_LETTER_QUEUE
  const field = (name: string) => sql`lower(normalize(j.data->'deployment'->>${name}, NFC))`
  const rows = await sql<UnrecordedJob[]>`
    select j.data, j.created_on as "createdOn", j.completed_on as "completedOn",
           j.retry_count as "retryCount", j.output, j.source_output as "sourceOutput",
           j.source_retry_count as "sourceRetryCount",
           ((extract(epoch from t.deployed_at) * 1000000)::bigint)::text as "deployedAtMicros"
      from pgboss.job j
      -- Jobs from before deployedAt was normalised may carry more than six fraction digits,
      -- which Postgres refuses; six are all it keeps anyway.
      cross join lateral (
        select regexp_replace(j.data->'deployment'->>'deployedAt', ${SIX_FRACTION_DIGITS}, ${'\\1'})::timestamptz
               as deployed_at) t
     where j.name = ${queue} and j.state < 'active' and not j.blocked
       and j.data->>'workspaceId' = ${query.workspaceId}
       ${query.appKey === undefined ? sql`` : sql`and ${field('app')} = ${query.appKey}`}
       ${query.environmentKey === undefined ? sql`` : sql`and ${field('environment')} = ${query.environmentKey}`}
       ${query.repositoryKey === undefined ? sql`` : sql`and ${field('repositoryFullName')} = ${query.repositoryKey}`}
       ${query.version === undefined ? sql`` : sql`and j.data->'deployment'->>'version' = ${query.version}`}
       ${query.commitPrefix === undefined ? sql`` : sql`and starts_with(j.data->'deployment'->>'commitHash', ${query.commitPrefix})`}
       ${query.since === undefined ? sql`` : sql`and t.deployed_at >= ${query.since}::text::timestamptz`}
       ${query.until === undefined ? sql`` : sql`and t.deployed_at < ${query.until}::text::timestamptz`}
       ${
         query.after === undefined
           ? sql``
           : sql`and (t.deployed_at, (j.data->>'id')::uuid) < (${instantAt(sql, query.after.deployedAtMicros)}, ${query.after.id}::uuid)`
       }
     order by t.deployed_at desc, (j.data->>'id')::uuid desc
     limit ${query.limit + 1}`
  const { page, next } = pageOf(rows, query.limit, (last) => ({
    deployedAtMicros: BigInt(last.deployedAtMicros),
    id: last.data.id,
  }))
  return { jobs: page, next }
}
