import type { DeploymentJob } from '@shiplog/schema'

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

/** Queue payloads as the API would have enqueued them, for the worker drain measurement. */
export function deploymentJobs(count: number, workspaceId: string, offset = 0): DeploymentJob[] {
  const receivedAt = new Date().toISOString()
  return Array.from({ length: count }, (_, position) => {
    const index = offset + position
    const id = crypto.randomUUID()
    return {
      id,
      workspaceId,
      receivedAt,
      deployment: {
        repositoryFullName: `acme/service-${index % 10}`,
        environment: ['production', 'staging', 'canary'][index % 3] as string,
        app: `app-${index % 20}`,
        version: `2026.11.${index}`,
        commitHash: COMMIT,
        description: 'Automated release',
        author: 'release-bot',
        deployedAt: receivedAt,
        monorepoPath: null,
      },
    }
  })
}
