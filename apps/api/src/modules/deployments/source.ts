// Shiplog's client names itself in its User-Agent (packages/client/src/transport.ts): its product
// token, then perhaps a version or a comment, in any case.
const SHIPLOG_CLIENT = /^shiplog-client(?:[/\s]|$)/i

/**
 * Where a `POST /v1/deployments` came from, by its User-Agent: `cli` for Shiplog's client (the
 * CLI, the GitHub Action, the GitLab template), `api` for anything else. Only a label: a request
 * may claim any User-Agent, and nothing is refused or trusted for it.
 */
export function sourceOfRequest(userAgent: string | null): 'cli' | 'api' {
  return userAgent !== null && SHIPLOG_CLIENT.test(userAgent.trim()) ? 'cli' : 'api'
}
