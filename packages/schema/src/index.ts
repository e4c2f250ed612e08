export {
  ApplicationList,
  ApplicationSummary,
  ByRepositoryQuery,
  DeploymentFrequency,
  DeploymentMatrix,
  EnvironmentList,
  EnvironmentNameParams,
  EnvironmentPlaceInput,
  EnvironmentSummary,
  FrequencyQuery,
  LatestDeployment,
} from './catalog.ts'
export { ChangeFailure, ChangeFailureSignal } from './change-failure.ts'
export { ChangeType } from './change-type.ts'
export type { Checked } from './checked.ts'
export { codePointLength, hasControlChar, hasLoneSurrogate } from './code-points.ts'
export {
  ComparedDeployment,
  CompareQuery,
  Comparison,
  WaitingCommit,
} from './compare.ts'
export {
  EARLIEST_MICROS,
  type Instant,
  instantFromDate,
  instantFromMicros,
  isoFromPostgres,
  LATEST_MICROS,
  parseDateOrDateTime,
  parseDateTime,
} from './date-time.ts'
export {
  DEPLOYED_AT_MAX_FUTURE_MS,
  DeploymentAccepted,
  DeploymentFields,
  DeploymentHeaders,
  DeploymentInput,
} from './deployment.ts'
export {
  type CommitList,
  commitTextLine,
  DeploymentCommit,
  DeploymentCommits,
  DeploymentCommitsInput,
  FIRST_DEPLOYMENT_HISTORY,
  MAX_COMMIT_TEXT,
  MAX_DEPLOYMENT_COMMITS,
  type ValidCommit,
  validateDeploymentCommits,
} from './deployment-commits.ts'
export {
  DeploymentIdParams,
  DeploymentPage,
  DeploymentRecord,
  ListDeploymentsQuery,
} from './deployment-record.ts'
export {
  DeploymentFailure,
  DeploymentStatus,
  DeploymentVoided,
  DeploymentVoidInput,
  validateDeploymentVoid,
} from './deployment-status.ts'
export { DoraFigures, DoraMetrics, DoraQuery } from './dora.ts'
export {
  inPipelineOrder,
  placeByRule,
  RULE_POSITIONS,
  type StoredPlace,
} from './environment-order.ts'
export { validateEnvironmentPlace } from './environment-place.ts'
export { FirstDelivery, FirstDeliveryPage, ListCommitsQuery } from './first-delivery.ts'
export { FORMATS, type FormatName } from './formats.ts'
export { parseIdempotencyKey, validateDeploymentHeaders } from './idempotency-key.ts'
export {
  Incident,
  IncidentIdParams,
  IncidentInput,
  IncidentPage,
  IncidentPatch,
  ListIncidentsQuery,
} from './incident.ts'
export {
  checkKeyName,
  checkName,
  KEY_NAME_MAX_LENGTH,
  nameKey,
  printableName,
  refusedCodePoint,
} from './names.ts'
export {
  type CommitCursor,
  decodeCommitCursor,
  decodeCursor,
  encodeCommitCursor,
  encodeCursor,
  type PageCursor,
} from './page-cursor.ts'
export {
  CursorParameter,
  DateTimeParameter,
  EnvironmentParameter,
  IdParameters,
  NameParameter,
  NoQuery,
  PageParameters,
  type ParameterSource,
  type ParametersResult,
  parseParameters,
} from './parameters.ts'
export { FieldError, Problem } from './problem.ts'
export { notAhead, REPORTED_TIME_MAX_FUTURE_MS } from './reported-time.ts'
export { allows, DEFAULT_SCOPES, isScope, SCOPES, type Scope } from './scopes.ts'
export { checkText, isInvalid } from './text.ts'
export { UUID } from './uuid.ts'
export { type BodyResult, type BodyValue, validateBody } from './validate-body.ts'
export { type ValidationResult, validateDeployment } from './validate-deployment.ts'
export {
  type IncidentInputFields,
  type IncidentPatchFields,
  validateIncidentInput,
  validateIncidentPatch,
} from './validate-incident.ts'
export { checkWebUrl, commitUrl } from './web-url.ts'
