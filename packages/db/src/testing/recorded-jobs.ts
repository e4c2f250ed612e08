// What the read model's property tests (read-model.test.ts, dora/deployment-frequency.test.ts)
// share: the names they draw from, the content of a delivery, and how it becomes a job for
// recordDeployments.

import { instantFromMicros, parseDateTime } from '@shiplog/schema'
import fc from 'fast-check'
import type { Sql } from '../client.ts'
import type { DeploymentJob } from '../deployment-job.ts'

/** Names drawn from, most with a second spelling that names the same thing. */
export const REPOSITORIES = ['acme/shop', 'ACME/Shop', 'acme/infra', 'other/tools']
export const APPS = ['api', 'API', 'web', 'Web', 'worker', 'billing']
export const ENVIRONMENTS = ['production', 'Production', 'staging', 'dev']

/** The microseconds since the epoch of an RFC 3339 date-time written in a test. */
export function microsOf(text: string): bigint {
  const parsed = parseDateTime(text)
  if (!parsed.ok) throw new Error(`${text} is not a date-time the tests can use`)
  return parsed.instant.micros
}

/** What makes two deliveries the same deployment (names compared by their key). */
export interface Content {
  workspace: 0 | 1
  repository: string
  app: string
  environment: string
  version: string
  commitHash: string
  at: bigint
}

/** A delivery's content: a workspace and names drawn from the lists above, with `versions`,
 * `commits` and the instants `at` draws. */
export function contentOf(
  versions: string[],
  commits: string[],
  at: fc.Arbitrary<bigint>,
): fc.Arbitrary<Content> {
  return fc.record({
    workspace: fc.constantFrom(0 as const, 1 as const),
    repository: fc.constantFrom(...REPOSITORIES),
    app: fc.constantFrom(...APPS),
    environment: fc.constantFrom(...ENVIRONMENTS),
    version: fc.constantFrom(...versions),
    commitHash: fc.constantFrom(...commits),
    at,
  })
}

/** Unique job ids whose order is the rank's: the index only breaks ties and keeps them apart. */
export const jobId = (rank: number, index: number) =>
  `${rank.toString(16).padStart(8, '0')}-0000-7000-8000-${index.toString(16).padStart(12, '0')}`

/** The job the worker would get for `content`, in the workspace its index names. */
export function toJob(id: string, content: Content, workspaceIds: [string, string]): DeploymentJob {
  return {
    id,
    workspaceId: workspaceIds[content.workspace],
    receivedAt: '2026-05-04T12:00:00.000Z',
    deployment: {
      repositoryFullName: content.repository,
      environment: content.environment,
      app: content.app,
      version: content.version,
      commitHash: content.commitHash,
      description: null,
      author: null,
      deployedAt: instantFromMicros(content.at).iso,
      monorepoPath: null,
    },
  }
}

// Children first. `delete`, not `truncate`: on a busy server truncate took 50–160 ms a run.
const RECORDED_TABLES = [
  'deployment_commits',
  'deployment_commit_lists',
  'deployment_dora_facts',
  'deployment_aliases',
  'deployment_cells',
  'deployment_counts',
  'deployments',
  'applications',
  'environments',
  'repositories',
]

/** Empties every table recording writes, keeping workspaces and keys. */
export async function emptyRecordedTables(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    for (const table of RECORDED_TABLES) await tx`delete from ${tx(table)}`
  })
}
