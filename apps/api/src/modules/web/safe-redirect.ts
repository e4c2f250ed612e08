// Where the dashboard may send a browser: its own pages, nowhere else. Every redirect it answers
// passes here (responses.ts), so a `next` from a query string or a form can neither leave the
// site (`//evil`, `\evil`, `javascript:`, `/ui/..//evil`) nor make a Location header that cannot
// be sent (CR/LF, U+2028, code points above U+00FF), which once answered 500 after storing a
// session.

import { hasControlChar } from '@shiplog/schema'

const HOME = '/ui'
// Parsed against an origin of its own: a target that resolves anywhere else is not a path here.
const ORIGIN = 'http://dashboard.invalid'

/**
 * `target` as a Location header value, if it is a page of the dashboard (`/ui` or a path under
 * it, with its query; non-ASCII percent-encoded); otherwise `/ui`.
 */
export function safeRedirectTarget(target: string | null | undefined): string {
  // Controls would be dropped by the URL parser (hiding what was sent); browsers read a
  // backslash as a slash, so `/\evil` is another host.
  if (!target?.startsWith('/') || hasControlChar(target) || target.includes('\\')) return HOME
  let url: URL
  try {
    url = new URL(target, ORIGIN)
  } catch {
    return HOME
  }
  if (url.origin !== ORIGIN) return HOME
  if (url.pathname !== HOME && !url.pathname.startsWith(`${HOME}/`)) return HOME
  return url.pathname + url.search
}
