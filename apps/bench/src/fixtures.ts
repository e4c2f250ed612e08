import type { DeploymentJob } from '@shiplog/db/queue'
import { uuidv7 } from '@shiplog/db/uuidv7'

const COMMIT = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'

/** Realistic bodies: 10 repositories, 20 apps, 3 environments, distinct versions. */
export function deploymentBodies(count: number): string[] {
  return Array.from({ length: count }, (_, index) =>
    JSON.stringify({
      repositoryFullName: `acme/service-${index % 10}`,
      environment: ['production', 'staging', 'canary'][index % 3],
      app: `app-${index % 20}`,
      version: `2026.11.${index}`,
      commitHash: COMMIT,
      author: 'release-bot',
      description: 'Automated release',
    }),
  )
}

/** A 40-digit commit SHA, distinct for each number. */
const shaOf = (number: number) => number.toString(16).padStart(8, '0').repeat(5).slice(0, 40)

/**
 * Queue payloads as the API would have enqueued them, for the worker drain measurement: a
 * monorepo's release train, where each commit goes to every app (20) in every environment (3),
 * one deployment a millisecond, and one deployment in fifty redeploys the commit before. The
 * read model orders each application's deployments in an environment and finds earlier
 * deployments of the same commit, so the commits and times vary as a pipeline's do.
 */
export function deploymentJobs(count: number, workspaceId: string, offset = 0): DeploymentJob[] {
  const receivedAt = new Date().toISOString()
  const start = Date.now() - 86_400_000
  return Array.from({ length: count }, (_, position) => {
    const index = offset + position
    const id = uuidv7()
    const release = Math.floor(index / 60)
    return {
      id,
      workspaceId,
      receivedAt,
      deployment: {
        repositoryFullName: `acme/service-${index % 10}`,
        environment: ['production', 'staging', 'canary'][index % 3] as string,
        app: `app-${index % 20}`,
        version: `2026.11.${index}`,
        commitHash: shaOf(index % 50 === 49 ? release - 1 : release),
        description: 'Automated release',
        author: 'release-bot',
        deployedAt: new Date(start + index).toISOString(),
        monorepoPath: null,
      },
    }
  })
}
