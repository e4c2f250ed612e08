export {
  ApplicationSummary,
  DeploymentFrequency,
  DeploymentMatrix,
  EnvironmentSummary,
  LatestDeployment,
} from './catalog.ts'
export { ChangeFailure, ChangeFailureSignal } from './change-failure.ts'
export { ChangeType } from './change-type.ts'
export { codePointLength, hasControlChar, hasLoneSurrogate } from './code-points.ts'
export {
  EARLIEST_MICROS,
  type Instant,
  instantFromDate,
  instantFromMicros,
  isoFromPostgres,
  LATEST_MICROS,
  parseDateTime,
} from './date-time.ts'
export {
  DEPLOYED_AT_MAX_FUTURE_MS,
  DeploymentFields,
  DeploymentInput,
} from './deployment.ts'
export {
  DeploymentCommit,
  DeploymentCommits,
  DeploymentCommitsInput,
  MAX_DEPLOYMENT_COMMITS,
  type ValidCommit,
  validateDeploymentCommits,
} from './deployment-commits.ts'
export { DeploymentJob } from './deployment-job.ts'
export { DeploymentPage, DeploymentRecord } from './deployment-record.ts'
export {
  DeploymentFailure,
  DeploymentStatus,
  DeploymentVoided,
  DeploymentVoidInput,
} from './deployment-status.ts'
export { DoraFigures, DoraMetrics } from './dora.ts'
export { parseEnv } from './env.ts'
export { FORMATS, type FormatName } from './formats.ts'
export { Incident, IncidentInput, IncidentPage, IncidentPatch } from './incident.ts'
export { nameKey } from './names.ts'
export { decodeCursor, encodeCursor, type PageCursor } from './page-cursor.ts'
export {
  CursorParameter,
  DateTimeParameter,
  type ParameterSource,
  type ParametersResult,
  parseParameters,
} from './parameters.ts'
export { FieldError, Problem } from './problem.ts'
export { allows, DEFAULT_SCOPES, isScope, SCOPES, type Scope } from './scopes.ts'
export { checkText } from './text.ts'
export { UUID } from './uuid.ts'
export { type BodyResult, type BodyValue, validateBody } from './validate-body.ts'
export { type ValidationResult, validateDeployment } from './validate-deployment.ts'
