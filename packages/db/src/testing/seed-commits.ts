import type { Sql } from '../client.ts'

/** How many commits each seeded deployment delivered, and how many deployments per statement. */
export interface CommitSeedShape {
  workspaceId: string
  perDeployment: number
  /** Deployments whose lists go in one statement, oldest first. */
  chunk?: number
}

/**
 * Gives every deployment of a seeded workspace a commit list, as `shiplog notify` sends them: each
 * deployment delivers `perDeployment` new commits, committed in the hours before it, with
 * distinct SHAs; one commit in a hundred reverts the commit delivered three deployments earlier
 * in its stream (a revert, which fails that deployment). Lists go in deployedAt order, a chunk
 * a statement. They go in without triggers, and the workspace's DORA facts are then rebuilt in one
 * pass from expected_deployment_dora_facts, the view `bun run db:verify` checks the triggers
 * against: through the triggers, each commit cost about 90 µs (5M commits, 8 minutes) where
 * the bench wants the data, not a replay of its arrival.
 */
export async function seedCommits(sql: Sql, shape: CommitSeedShape): Promise<void> {
  const chunk = shape.chunk ?? 20_000
  const ws = shape.workspaceId
  // Each deployment's place in time and its stream's third deployment before it, once.
  await sql`drop table if exists seed_commit_plan`
  await sql`
    create unlogged table seed_commit_plan as
    select row_number() over (order by d.deployed_at, d.id) as ordinal, d.id, d.deployed_at,
           lag(d.id, 3) over (partition by d.application_id, d.environment_id
                              order by d.deployed_at, d.id) as third_before
      from deployments d
     where d.workspace_id = ${ws}`
  await sql`create index on seed_commit_plan (ordinal)`
  const [plan] = await sql<{ count: number }[]>`select count(*)::int as count from seed_commit_plan`
  for (let offset = 0; offset < (plan?.count ?? 0); offset += chunk) {
    await sql.begin(async (tx) => {
      await tx`set local statement_timeout = 0`
      await tx`set local session_replication_role = replica`
      const range = tx`ordinal > ${offset} and ordinal <= ${offset + chunk}`
      await tx`
        insert into deployment_commit_lists (deployment_id, workspace_id, truncated)
        select id, ${ws}, false from seed_commit_plan where ${range}`
      await tx`
        insert into deployment_commits (deployment_id, sha, committed_at, authored_at, reverts)
        select s.id, md5(s.id::text || n) || substr(md5(n || s.id::text), 1, 8), c.committed, c.committed - interval '1 hour',
               case when n = 1 and s.third_before is not null and hashtext(s.id::text) % 100 = 0
                    then array[md5(s.third_before::text || 1) || substr(md5(1 || s.third_before::text), 1, 8)] else '{}' end
          from seed_commit_plan s
         cross join generate_series(1, ${shape.perDeployment}) n
         cross join lateral (
           select s.deployed_at - (n * 37 + abs(hashtext(s.id::text)) % 7200) * interval '1 minute'
                  as committed) c
         where ${range}
         order by s.ordinal, n`
    })
  }
  await sql`drop table seed_commit_plan`
  await sql.begin(async (tx) => {
    await tx`set local statement_timeout = 0`
    const ofWorkspace = tx`application_id in (select id from applications where workspace_id = ${ws})`
    await tx`delete from deployment_dora_facts where ${ofWorkspace}`
    await tx`insert into deployment_dora_facts select * from expected_deployment_dora_facts where ${ofWorkspace}`
  })
}
