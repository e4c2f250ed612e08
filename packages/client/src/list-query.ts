import type { DeploymentStatus } from '@shiplog/schema'
import { queryParams } from './read-queries.ts'

/** Filters and paging of `GET /v1/deployments`; only the ones set are sent. */
export interface ListDeploymentsQuery {
  app?: string
  environment?: string
  repository?: string
  version?: string
  /** A prefix of the commit, at least 4 hexadecimal digits. */
  commitHash?: string
  /** `deployedAt` at or after this instant. */
  since?: string | Date
  /** `deployedAt` before this instant. */
  until?: string | Date
  /** Only this change type; `change`: initial or forward (what the change fail rate divides by). */
  changeType?: 'initial' | 'redeploy' | 'rollback' | 'forward' | 'change'
  /** Only deployments some signal says failed (true), or the others (false), by the DORA rule. */
  failed?: boolean
  /** Only rework as the DORA rework rate counts it (true), or the others (false). */
  rework?: boolean
  /** Only the production environments (true), or the others (false). */
  production?: boolean
  /** The API lists `recorded` deployments unless asked for `queued` or `failed` ones. */
  status?: DeploymentStatus['status']
  /** Page size, 1 to 100 (the API defaults to 50). */
  limit?: number
  /** `nextCursor` of the previous page. */
  cursor?: string
}

/** The query string for `query`, leaving out unset filters (the API rejects empty ones). */
export function listQueryParams(query: ListDeploymentsQuery): URLSearchParams {
  return queryParams({ ...query })
}
