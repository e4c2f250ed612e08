// The runs the read model's property test (read-model-runs.test.ts) draws: batches of deliveries
// to the worker (new, retried, repeated, tied, backfilled), voids and commit lists, over names,
// versions, commits and instants chosen so that they collide, and the tally of what the runs
// reached, so the property cannot pass by never reaching a case.

import { EARLIEST_MICROS, LATEST_MICROS, nameKey } from '@shiplog/schema'
import fc from 'fast-check'
import type { DeploymentJob } from '../deployment-job.ts'
import { DAY_MICROS } from './read-model-recount.ts'
import {
  APPS,
  type Content,
  contentOf,
  ENVIRONMENTS,
  jobId,
  microsOf,
  REPOSITORIES,
  toJob,
} from './recorded-jobs.ts'

const VERSIONS = ['1.0.0', '1.0.1', '2.0.0']
/** The commits deployments are drawn with, a short hash among them. */
export const COMMITS = [
  'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
  '9fceb02d0ae598e95dc970b74767f19372d61af8',
  'abcdef1',
]

// Midnights, Mondays and the first bucket of a block of 32 (day 20576 is 2026-05-03, week 2944
// starts 2026-06-01, day -32 is 1969-11-30), each with its neighbours 1 µs away; the epoch and
// the Monday of week 0 from below; the first and last instants a client can send.
const INSTANTS = [
  ...[
    '2026-05-04T00:00:00Z',
    '2026-05-03T00:00:00Z',
    '2026-06-01T00:00:00Z',
    '2026-05-01T12:00:00Z',
    '1970-01-01T00:00:00Z',
    '1969-12-29T00:00:00Z',
    '1969-11-30T00:00:00Z',
  ].flatMap((text) => [microsOf(text) - 1n, microsOf(text), microsOf(text) + 1n]),
  EARLIEST_MICROS,
  EARLIEST_MICROS + 7n * DAY_MICROS - 1n,
  microsOf('9999-12-27T00:00:00Z'),
  LATEST_MICROS,
]

/** What makes two deliveries one deployment, as a string. */
export const contentKey = (c: Content) =>
  [
    c.workspace,
    nameKey(c.repository),
    nameKey(c.app),
    nameKey(c.environment),
    c.version,
    c.commitHash,
    c.at,
  ].join('|')
const cellKey = (c: Content) =>
  [c.workspace, nameKey(c.repository), nameKey(c.app), nameKey(c.environment)].join('|')

const content = contentOf(VERSIONS, COMMITS, fc.constantFrom(...INSTANTS))

/** Another spelling of the same name, when it has one. */
function respell(names: string[], name: string, pick: number): string {
  const same = names.filter((other) => nameKey(other) === nameKey(name))
  return same[pick % same.length] ?? name
}

// One delivery to the worker. References pick an earlier delivery of the same run (modulo how
// many there are); with none yet, the op delivers its own content.
type Op =
  | { kind: 'new'; content: Content }
  // The same job delivered again: same id, same payload.
  | { kind: 'retry'; ref: number; content: Content }
  // The same deployment posted again: a new id, the same fields (perhaps spelled otherwise).
  | { kind: 'alias'; ref: number; spelling: number; content: Content }
  // Another deployment of the same cell at the same instant: a tie broken by id.
  | { kind: 'tie'; ref: number; spelling: number; content: Content }
  // Another deployment of the same cell at another instant: often older, a backfill.
  | { kind: 'sibling'; ref: number; spelling: number; content: Content }

const ref = fc.nat({ max: 1_000 })
const spelling = fc.nat({ max: 3 })
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('new' as const), content }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retry' as const), ref, content }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('alias' as const), ref, spelling, content }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('tie' as const), ref, spelling, content }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('sibling' as const), ref, spelling, content }),
  },
)
/** The rank orders job ids, so ties in deployedAt fall either way. */
const delivery = fc.record({ op, rank: fc.nat({ max: 0xffff_ffff }) })
const batch = fc.array(delivery, { minLength: 1, maxLength: 10 })
// Deployments to void during a step, by their place among those recorded and not voided yet.
const voids = fc.array(fc.nat({ max: 1_000 }), { maxLength: 2 })
// Few SHAs, so deployments deliver the same commits and revert each other's.
const SHAS = [
  '1111111111111111111111111111111111111111',
  '2222222222222222222222222222222222222222',
  '3333333333333333333333333333333333333333',
  '4444444444444444444444444444444444444444',
]
const listedCommit = fc.record({
  sha: fc.constantFrom(...SHAS),
  at: fc.constantFrom(...INSTANTS),
  reverts: fc.subarray(SHAS, { maxLength: 1 }),
})
// A commit list a pipeline stores for one of the run's deliveries (its place among them, modulo
// their number), sent beside the step's batches: the delivery may be recorded, still queued (a
// later step records it), or a repeated delivery; an empty list clears one stored before.
// Places drawn from a few, so lists land on the same delivery again.
const list = fc.record({
  ref: fc.nat({ max: 12 }),
  commits: fc.uniqueArray(listedCommit, { selector: (commit) => commit.sha, maxLength: 3 }),
})
const lists = fc.array(list, { maxLength: 2 })
const step = fc.oneof(
  { weight: 3, arbitrary: fc.record({ batches: fc.tuple(batch), voids, lists }) },
  { weight: 1, arbitrary: fc.record({ batches: fc.tuple(batch, batch), voids, lists }) },
)
export const run = fc.array(step, { minLength: 1, maxLength: 4 })

/** A delivered job and the content it carries. */
export interface Delivered {
  job: DeploymentJob
  content: Content
}

/** What the generated run exercised, so the property cannot pass by never reaching a case. */
export const reached = {
  runs: 0,
  retries: 0,
  aliases: 0,
  ties: 0,
  backfills: 0,
  respelled: 0,
  concurrentSteps: 0,
  voids: 0,
  beforeEpoch: 0,
  listsWhileQueued: 0,
  listsReplaced: 0,
  listsOfRepeatedDeliveries: 0,
}

/** Turns the ops of a run into job batches, counting what they exercise. */
export function deliveriesOf(
  steps: { batches: { op: Op; rank: number }[][] }[],
  workspaceIds: [string, string],
) {
  const delivered: Delivered[] = []
  // The latest instant of each cell in earlier steps: a new deployment before it is a backfill.
  const latestBefore = new Map<string, bigint>()
  const seen = new Set<string>()
  const resolved = steps.map(({ batches }) => {
    const inStep: Delivered[] = []
    const out = batches.map((items) =>
      items.map(({ op, rank }) => {
        const previous = delivered[(op.kind === 'new' ? 0 : op.ref) % delivered.length]
        const id = jobId(rank, delivered.length)
        let next: Delivered
        if (op.kind === 'new' || !previous)
          next = { job: toJob(id, op.content, workspaceIds), content: op.content }
        else if (op.kind === 'retry') {
          next = previous
          reached.retries++
        } else {
          const respelled: Content = {
            ...previous.content,
            repository: respell(REPOSITORIES, previous.content.repository, op.spelling),
            app: respell(APPS, previous.content.app, op.spelling + 1),
            environment: respell(ENVIRONMENTS, previous.content.environment, op.spelling + 2),
          }
          if (respelled.app !== previous.content.app) reached.respelled++
          const c: Content =
            op.kind === 'alias'
              ? respelled
              : op.kind === 'tie'
                ? {
                    ...respelled,
                    version: op.content.version,
                    commitHash: op.content.commitHash,
                  }
                : { ...respelled, at: op.content.at }
          next = { job: toJob(id, c, workspaceIds), content: c }
          if (op.kind === 'alias') reached.aliases++
        }
        delivered.push(next)
        inStep.push(next)
        return next
      }),
    )
    for (const { content: c } of inStep) {
      if (seen.has(contentKey(c))) continue
      seen.add(contentKey(c))
      const latest = latestBefore.get(cellKey(c))
      if (latest !== undefined && c.at < latest) reached.backfills++
      if (c.at < 0n) reached.beforeEpoch++
    }
    for (const { content: c } of inStep) {
      const latest = latestBefore.get(cellKey(c))
      if (latest === undefined || c.at > latest) latestBefore.set(cellKey(c), c.at)
    }
    if (batches.length > 1) reached.concurrentSteps++
    return out.map((items) => items.map(({ job }) => job))
  })
  const instantsPerCell = new Map<string, Set<string>>()
  for (const { content: c } of delivered) {
    const key = `${cellKey(c)}|${c.at}`
    const contents = instantsPerCell.get(key) ?? new Set<string>()
    contents.add(contentKey(c))
    instantsPerCell.set(key, contents)
  }
  for (const contents of instantsPerCell.values()) if (contents.size > 1) reached.ties++
  return { delivered, steps: resolved }
}
