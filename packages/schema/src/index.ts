export {
  ApplicationSummary,
  DeploymentFrequency,
  DeploymentMatrix,
  EnvironmentSummary,
  LatestDeployment,
} from './catalog.ts'
export { codePointLength, hasControlChar, hasLoneSurrogate } from './code-points.ts'
export {
  DEPLOYED_AT_MAX_FUTURE_MS,
  DeploymentFields,
  DeploymentInput,
} from './deployment.ts'
export { DeploymentJob } from './deployment-job.ts'
export { DeploymentPage, DeploymentRecord } from './deployment-record.ts'
export { DeploymentFailure, DeploymentStatus } from './deployment-status.ts'
export { parseEnv } from './env.ts'
export { nameKey } from './names.ts'
export { FieldError, Problem } from './problem.ts'
export { type ValidationResult, validateDeployment } from './validate-deployment.ts'
