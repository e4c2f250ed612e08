// The commits change lead time counted (GET /v1/commits): each commit where its application
// first delivered it to an environment, by a deployment other than the stream's first. They are
// the entries of `lead_seconds` in deployment_dora_facts (07_dora_facts.sql), named: the facts'
// rows with lead times, newest first per environment (their window indexes), and for each the
// commits it delivered that no earlier deployment of its stream delivered (delivered_before, the
// probe the facts were computed with). So a window lists as many as its figure counts.

import type { CommitCursor, FirstDelivery } from '@shiplog/schema'
import type { Fragment, Sql } from '../client.ts'
import { instantAt } from '../read/keyset.ts'

/** Which first deliveries to list, newest deployment first. */
export interface FirstDeliveryQuery {
  workspaceId: string
  /** The environments' ids. */
  environmentIds: string[]
  /** A relation of application ids (column `id`), when the list names an app or repository. */
  applications?: Fragment | undefined
  /** RFC 3339: deployedAt at or after, before. */
  since?: string | undefined
  until?: string | undefined
  after?: CommitCursor | undefined
}

/** A row: the delivery, without its commit's link (the caller forms it from webUrl). */
export type FirstDeliveryRow = Omit<FirstDelivery, 'url'> & {
  webUrl: string | null
  deployedAtMicros: string
}

// Facts with lead times of one environment, newest first, each bound of migration 0015's two
// partial indexes read in its order and merged (written out, so a generic plan can use them).
function factsOf(sql: Sql, query: FirstDeliveryQuery, limit: number | undefined): Fragment {
  const { after } = query
  const bounded = (bound: Fragment) => sql`
    select f.deployment_id, f.application_id, f.environment_id, f.deployed_at
      from deployment_dora_facts f
     where f.environment_id = e.id and ${bound}
       ${query.since === undefined ? sql`` : sql`and f.deployed_at >= ${query.since}::text::timestamptz`}
       ${query.until === undefined ? sql`` : sql`and f.deployed_at < ${query.until}::text::timestamptz`}
       ${query.applications === undefined ? sql`` : sql`and f.application_id in (${query.applications})`}
       ${
         after === undefined
           ? sql``
           : sql`and f.deployed_at <= ${instantAt(sql, after.deployedAtMicros)}
                 and (f.deployed_at, f.deployment_id) <= (${instantAt(sql, after.deployedAtMicros)}, ${after.id}::uuid)`
       }
     order by f.deployed_at desc, f.deployment_id desc
     ${limit === undefined ? sql`` : sql`limit ${limit}`}`
  return sql`
    select x.* from unnest(${query.environmentIds}::bigint[]) as e(id)
     cross join lateral (
       (${bounded(sql`cardinality(f.lead_seconds) between 1 and 200`)})
       union all
       (${bounded(sql`cardinality(f.lead_seconds) > 200`)})) x`
}

/**
 * The statement of the query's first deliveries, newest `deployedAt` first (then deployment,
 * then SHA, both descending); `limit` of them, or all. Each deployment with lead times has at least one, so a
 * page needs at most `limit` such deployments per environment, besides the cursor's own.
 */
function firstDeliveries(sql: Sql, query: FirstDeliveryQuery, limit?: number): Fragment {
  const { after } = query
  return sql`
    with facts as materialized (
      select * from (${factsOf(sql, query, limit && limit + 1)}) f
       order by f.deployed_at desc, f.deployment_id desc
       ${limit === undefined ? sql`` : sql`limit ${limit + 1}`}),
    delivered as (
      select f.*, c.sha, c.committed_at from facts f
       cross join lateral delivered_commits(f.deployment_id) c
       where not delivered_before(c.sha, f.application_id, f.environment_id, f.deployed_at,
                                  f.deployment_id)
         ${
           after === undefined
             ? sql``
             : sql`and (f.deployed_at, f.deployment_id, c.sha)
                       < (${instantAt(sql, after.deployedAtMicros)}, ${after.id}::uuid, ${after.sha})`
         }
       order by f.deployed_at desc, f.deployment_id desc, c.sha desc
       ${limit === undefined ? sql`` : sql`limit ${limit}`})
    select d.sha, d.deployment_id::text as "deploymentId", a.name as app, e.name as environment,
           iso_utc(d.deployed_at) as "deployedAt", iso_utc(d.committed_at) as "committedAt",
           extract(epoch from d.deployed_at - d.committed_at)::float8 as "leadTimeSeconds",
           details.subject, details.author, details.web_url as "webUrl",
           ((extract(epoch from d.deployed_at) * 1000000)::bigint)::text as "deployedAtMicros"
      from delivered d
      join applications a on a.id = d.application_id
      join environments e on e.id = d.environment_id
     cross join lateral (
       select max(c.subject) as subject, max(c.author) as author, max(l.web_url) as web_url
         from (select d.deployment_id as id
               union all
               select x.id from deployment_aliases x where x.deployment_id = d.deployment_id) r
         join deployment_commits c on c.deployment_id = r.id and c.sha = d.sha
         join deployment_commit_lists l on l.deployment_id = r.id) details
     order by d.deployed_at desc, d.deployment_id desc, d.sha desc`
}

/** A page of first deliveries: `limit` + 1 rows, so the caller knows whether more follow. */
export function listFirstDeliveries(
  sql: Sql,
  query: FirstDeliveryQuery,
  limit: number,
): Promise<FirstDeliveryRow[]> {
  return sql<FirstDeliveryRow[]>`${firstDeliveries(sql, query, limit + 1)}`
}

/**
 * Every first delivery of the query, `options.chunk` at a time: the list's pages, one after the
 * other, in one read-only snapshot under `timeoutMs`. Pages, not one statement: a statement
 * over every delivery must sort them all before its first row (minutes at millions, a silent
 * connection), while a page's plan reads only its own. The next page is asked for before
 * `each` handles this one, so Postgres and the caller overlap.
 */
export async function exportFirstDeliveries(
  sql: Sql,
  query: Omit<FirstDeliveryQuery, 'after'>,
  options: { chunk: number; timeoutMs: number },
  each: (rows: FirstDeliveryRow[]) => Promise<void>,
): Promise<void> {
  await sql.begin('isolation level repeatable read read only', async (tx) => {
    await tx`select set_config('statement_timeout', ${String(options.timeoutMs)}, true)`
    // Fragments are built with `sql` and run inside `tx`: postgres.js allows that.
    const page = (after: CommitCursor | undefined) =>
      tx<
        FirstDeliveryRow[]
      >`${firstDeliveries(sql, { ...query, after }, options.chunk + 1)}`.execute()
    // A page asked for while `each` fails is met by no await: its own failure is no crash.
    const ahead = (query: Promise<FirstDeliveryRow[]>) => {
      query.catch(() => {})
      return query
    }
    let next = ahead(page(undefined))
    for (;;) {
      const rows = await next
      const last = rows[options.chunk - 1]
      const more = rows.length > options.chunk && last !== undefined
      if (more) {
        next = ahead(
          page({
            deployedAtMicros: BigInt(last.deployedAtMicros),
            id: last.deploymentId,
            sha: last.sha,
          }),
        )
      }
      await each(rows.slice(0, options.chunk))
      if (!more) return
    }
  })
}
