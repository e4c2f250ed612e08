import type { Sql } from '@shiplog/db/client'

/** One table or index of schema public and its main fork's size. */
export interface RelationSize {
  name: string
  kind: 'table' | 'index'
  /** The table an index belongs to; the table itself for a table. */
  table: string
  bytes: number
}

/** What Shiplog's tables take on disk at one size. */
export interface Storage {
  deployments: number
  /** pg_total_relation_size of every table in schema public: heap, indexes, TOAST, maps. */
  totalBytes: number
  bytesPerDeployment: number
  /** The queue: the inbox and its engine's schema (retries and dead letters), all forks. */
  queueBytes: number
  relations: RelationSize[]
}

/**
 * Sizes Shiplog's tables (schema public; the queue's engine keeps its own schema) and counts the deployments
 * they hold, so the bytes a deployment costs include its share of the read model and indexes.
 */
export async function measureStorage(sql: Sql): Promise<Storage> {
  const [totals] = await sql<{ deployments: number; totalBytes: number; queueBytes: number }[]>`
    select (select count(*) from deployments)::int as deployments,
           (select pg_total_relation_size('deployment_inbox')
                   + coalesce(sum(pg_total_relation_size(c.oid)), 0)
              from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = 'pgboss' and c.relkind = 'r')::float8 as "queueBytes",
           (select sum(pg_total_relation_size(c.oid))
              from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = 'public' and c.relkind in ('r', 'p'))::float8 as "totalBytes"`
  const relations = await sql<RelationSize[]>`
    select c.relname as name,
           case when c.relkind in ('i', 'I') then 'index' else 'table' end as kind,
           coalesce(t.relname, c.relname) as table,
           pg_relation_size(c.oid)::float8 as bytes
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_index i on i.indexrelid = c.oid
      left join pg_class t on t.oid = i.indrelid
     where n.nspname = 'public' and c.relkind in ('r', 'p', 'i', 'I')
     order by pg_relation_size(c.oid) desc, c.relname`
  if (!totals) throw new Error('could not size the database')
  return {
    deployments: totals.deployments,
    totalBytes: totals.totalBytes,
    bytesPerDeployment: totals.totalBytes / totals.deployments,
    queueBytes: totals.queueBytes,
    relations: [...relations],
  }
}
