import type { DeploymentStatus } from '@shiplog/schema'
import { EXAMPLE_DEPLOYMENT } from './example-plan.ts'

/** A deployment's receipt as the API answers it right after its 202: queued, nothing recorded. */
export const QUEUED_RECEIPT: DeploymentStatus = {
  id: '01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4',
  status: 'queued',
  ...EXAMPLE_DEPLOYMENT,
  commitHash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
  description: null,
  author: null,
  deployedAt: '2026-05-01T12:00:00.000Z',
  monorepoPath: null,
  receivedAt: '2026-05-01T12:00:00.000Z',
  source: 'cli',
  recordedAt: null,
  changeType: null,
  changeFailure: null,
  duplicateOf: null,
  failure: null,
  voided: null,
}
