import type { Checked } from './checked.ts'

// Printable ASCII; the IETF draft sends the key as a structured-field string ("..."), while many
// clients send it bare, so both are accepted.
const QUOTED = /^"([\x20\x21\x23-\x5b\x5d-\x7e]{1,255})"$/
const BARE = /^[\x21\x23-\x7e]{1,255}$/

/** The key of an `Idempotency-Key` header, or an error message saying what a valid one is. */
export function parseIdempotencyKey(
  header: string,
): { ok: true; key: string } | { ok: false; message: string } {
  const value = header.trim()
  const quoted = QUOTED.exec(value)
  if (quoted) return { ok: true, key: quoted[1] as string }
  if (BARE.test(value)) return { ok: true, key: value }
  return {
    ok: false,
    message: 'must be 1 to 255 printable ASCII characters, for example a UUID',
  }
}

/** The headers `POST /v1/deployments` reads (`DeploymentHeaders`), checked. */
export function validateDeploymentHeaders(
  headers: Headers,
): Checked<{ idempotencyKey: string | undefined }> {
  const header = headers.get('idempotency-key')
  if (header === null) return { ok: true, value: { idempotencyKey: undefined } }
  const parsed = parseIdempotencyKey(header)
  if (!parsed.ok)
    return { ok: false, errors: [{ field: 'Idempotency-Key', message: parsed.message }] }
  return { ok: true, value: { idempotencyKey: parsed.key } }
}
