export type {
  DeploymentCommit,
  DeploymentCommits,
  DeploymentCommitsInput,
  DeploymentInput,
  DeploymentPage,
  DeploymentRecord,
  DeploymentStatus,
  DoraFigures,
  DoraMetrics,
  FieldError,
  FirstDelivery,
  FirstDeliveryPage,
  Incident,
  IncidentInput,
  IncidentPage,
  IncidentPatch,
  Problem,
} from '@shiplog/schema'
export type { CiContext, Env } from './ci-env.ts'
export { detectCi } from './ci-env.ts'
export type {
  CreateDeploymentOptions,
  CreatedDeployment,
  DoraMetricsQuery,
  ListCommitsQuery,
  ListIncidentsQuery,
  ShiplogClient,
  ShiplogClientOptions,
} from './client.ts'
export { createShiplogClient } from './client.ts'
export {
  DeploymentFailedError,
  DeploymentWaitTimeoutError,
  ShiplogError,
  ShiplogNetworkError,
} from './errors.ts'
export type { ListDeploymentsQuery } from './list-query.ts'
export type { FetchLike, Retry, Sleep } from './transport.ts'
export type { WaitOptions } from './wait.ts'
