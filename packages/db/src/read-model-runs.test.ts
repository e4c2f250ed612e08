import { describe, expect, test } from 'bun:test'
import { instantFromMicros } from '@shiplog/schema'
import fc from 'fast-check'
import type { Tx } from './client.ts'
import type { DeploymentJob } from './deployment-job.ts'
import { replaceDeploymentCommits, StoredListKept } from './queries/deployment-commits.ts'
import { recordDeployments } from './queries/record-deployments.ts'
import { contentKey, type Delivered, deliveriesOf, reached, run } from './testing/delivery-runs.ts'
import { expectExact } from './testing/read-model-recount.ts'
import { emptyRecordedTables } from './testing/recorded-jobs.ts'
import { twoWorkspacesPerFile } from './testing/two-workspaces.ts'

// The read model (packages/db/sql/03_read_model.sql, 07_dora_facts.sql) must hold exactly what
// its expected_* views compute from the deployments and their commit lists, whatever the worker
// records and whenever pipelines send lists: duplicates, aliases, backfills, ties, concurrent
// batches, lists for deployments still queued or for repeated deliveries, replaced lists,
// instants at every boundary of its day and week numbering. Each check is made twice: by
// verifyReadModel, and against a recount done in TypeScript (testing/read-model-recount.ts).

const files = twoWorkspacesPerFile({ applicationName: 'read-model-test', maxConnections: 6 })
const { sql } = files

// A repeated delivery that has its own commit list locks its stream after the batch's own cells
// (09_triggers.sql), so two batches doing so across the same two streams can deadlock. Postgres
// rolls one back and the worker records that batch again (consumer.ts); so does this test.
async function record(jobs: DeploymentJob[]): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await sql.begin((tx: Tx) => recordDeployments(tx, jobs))) as number
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt === 5) throw error
    }
  }
}

let latestMovedBack = 0

/** Voids deployments by their place among those not voided yet, as DELETE does. */
async function voidSome(places: number[]) {
  for (const place of places) {
    const ids = await sql<{ id: string }[]>`
      select id::text from deployments where voided_at is null order by id`
    const id = ids[place % Math.max(ids.length, 1)]?.id
    if (!id) return
    // A cell's latest voided whose successor lies in another day: the cell then holds that day's
    // counts, taken back from deployment_counts (read_model_move_held).
    const [movesBack] = await sql<{ yes: boolean }[]>`
      select coalesce((
        select bucket_number(s.deployed_at, 1::smallint) <> c.latest_day
          from deployment_cells c
          join deployments s on s.application_id = c.application_id and s.environment_id = c.environment_id
         where c.latest_id = ${id} and s.voided_at is null and s.id <> ${id}
         order by s.deployed_at desc, s.id desc
         limit 1), false) as yes`
    await sql`update deployments set voided_at = now() where id = ${id} and voided_at is null`
    reached.voids++
    if (movesBack?.yes) latestMovedBack++
  }
}

type ListOp = { ref: number; commits: { sha: string; at: bigint; reverts: string[] }[] }

/**
 * Stores the step's commit lists as the commits endpoint does, counting those sent while their
 * deployment was still queued (recorded by a later step) and those replacing an earlier list.
 */
async function storeLists(
  listOps: ListOp[],
  delivered: Delivered[],
  stepOfDelivery: number[],
  step: number,
  stored: Set<string>,
) {
  for (const { ref: place, commits } of listOps) {
    const index = place % delivered.length
    const target = delivered[index]
    if (!target) continue
    if ((stepOfDelivery[index] ?? 0) > step) reached.listsWhileQueued++
    if (stored.has(target.job.id)) reached.listsReplaced++
    stored.add(target.job.id)
    // An empty list where commits are stored is refused and the stored list kept (409).
    await replaceDeploymentCommits(sql, target.job.workspaceId, target.job.id, {
      truncated: false,
      commits: commits.map((commit) => ({
        sha: commit.sha,
        committedAt: instantFromMicros(commit.at),
        authoredAt: instantFromMicros(commit.at),
        reverts: commit.reverts,
      })),
    }).catch((error) => {
      if (!(error instanceof StoredListKept && commits.length === 0)) throw error
    })
  }
}

describe('the read model, after any run of recorded batches', () => {
  test('property: matches the deployments after every step, sequential or concurrent', async () => {
    await fc.assert(
      fc.asyncProperty(run, async (generated) => {
        reached.runs++
        await emptyRecordedTables(sql)
        const { delivered, steps } = deliveriesOf(generated, files.workspaceIds)
        const stepOfDelivery = steps.flatMap((batches, index) => batches.flat().map(() => index))
        const listed = new Set<string>()
        for (const [index, batches] of steps.entries()) {
          // Voids and lists run beside the step's batches: a void or a list and a batch of one
          // cell must neither deadlock nor miss each other.
          await Promise.all([
            ...batches.map(record),
            voidSome(generated[index]?.voids ?? []),
            storeLists(generated[index]?.lists ?? [], delivered, stepOfDelivery, index, listed),
          ])
          await expectExact(sql)
        }
        const [onAliases] = await sql<{ count: number }[]>`
          select count(*)::int as count from deployment_commit_lists l
           where exists (select 1 from deployment_aliases a where a.id = l.deployment_id)`
        reached.listsOfRepeatedDeliveries += onAliases?.count ?? 0
        // Each distinct deployment was recorded once; every other id became an alias of it.
        const distinct = new Set(delivered.map(({ content: c }) => contentKey(c)))
        const ids = new Set(delivered.map(({ job }) => job.id))
        const [tally] = await sql<{ deployments: number; aliases: number }[]>`
          select (select count(*)::int from deployments) as deployments,
                 (select count(*)::int from deployment_aliases) as aliases`
        expect(tally).toEqual({ deployments: distinct.size, aliases: ids.size - distinct.size })
      }),
      { numRuns: 120 },
    )
    // Not vacuous: the runs reached every case the property is about.
    for (const [what, times] of Object.entries({ ...reached, latestMovedBack })) {
      expect({ what, reached: times > 5 }).toEqual({ what, reached: true })
    }
  }, 60_000)
})
