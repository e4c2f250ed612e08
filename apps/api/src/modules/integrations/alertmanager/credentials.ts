// Alertmanager proves a webhook with its receiver's `http_config`: `authorization` sends
// `Authorization: Bearer <secret>` (the default type), `basic_auth` sends HTTP Basic, whose
// password is the secret (any username). Both are compared through digests, in constant time.

import { gitLabTokenMatchesDigests } from '../gitlab/token.ts'

/** The secret an `Authorization` header offers: a bearer token, or a Basic password. */
export function offeredSecret(authorization: string | null): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1]
  if (bearer !== undefined) return bearer
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '')?.[1]
  if (basic === undefined) return null
  let decoded: string
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(atob(basic), (char) => char.charCodeAt(0)),
    )
  } catch {
    return null
  }
  const colon = decoded.indexOf(':')
  return colon < 0 ? null : decoded.slice(colon + 1)
}

/** Whether the request's `Authorization` offers a secret whose digest is one of `digests`. */
export function alertmanagerProves(digests: Uint8Array[], authorization: string | null) {
  return gitLabTokenMatchesDigests(digests, offeredSecret(authorization))
}
