import type { Sql } from '@shiplog/db/client'
import type { DeploymentJob } from '@shiplog/db/queue'
import { createUuidV7 } from '@shiplog/db/uuidv7'

/** Issue 25's live shape: 20 repositories of 15 applications each, 4 environments. */
export const LIVE_SHAPE = { repositories: 20, applicationsPerRepository: 15 }
export const LIVE_ENVIRONMENTS = ['production', 'staging', 'development', 'qa']

/** One stream: an application of a repository in an environment. */
export interface Stream {
  repositoryFullName: string
  app: string
  environment: string
}

/** The 300 × 4 streams of a workspace seeded with `LIVE_SHAPE` (seedDeployments names them). */
export async function liveStreams(sql: Sql, workspaceId: string): Promise<Stream[]> {
  const apps = await sql<{ app: string; repository: string }[]>`
    select a.name as app, r.full_name as repository
      from applications a join repositories r on r.id = a.repository_id
     where a.workspace_id = ${workspaceId}
     order by a.id`
  return apps.flatMap(({ app, repository }) =>
    LIVE_ENVIRONMENTS.map((environment) => ({ repositoryFullName: repository, app, environment })),
  )
}

const hex40 = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(20)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')

// The API's id is a UUIDv7 of the instant it received the request: so is the benchmark's, so the
// inbox holds ids as far apart as arrivals are (the worker's walk of it starts from a window of
// recent ids), not a hundred thousand made within the seconds the inbox takes to fill.
const idAt = createUuidV7()

/**
 * Deployments as pipelines send them live: the streams in turn, `deployedAt` omitted (so the
 * instant the API received it, each the newest of its stream), a new commit each time.
 * `startMs` places them after everything stored; one a millisecond.
 */
export function liveJobs(
  streams: Stream[],
  workspaceId: string,
  count: number,
  offset: number,
  startMs: number,
): DeploymentJob[] {
  return Array.from({ length: count }, (_, position) => {
    const index = offset + position
    const stream = streams[index % streams.length] as Stream
    const at = new Date(startMs + index).toISOString()
    return {
      id: idAt(startMs + index),
      workspaceId,
      receivedAt: at,
      deployment: {
        ...stream,
        version: `2026.11.${index}`,
        commitHash: hex40(),
        description: null,
        author: null,
        deployedAt: at,
        monorepoPath: null,
      },
    }
  })
}
