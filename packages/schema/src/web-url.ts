import { checkText, invalid, isInvalid, type Outcome } from './text.ts'

const MAX_WEB_URL = 500
const BAD_WEB_URL = invalid(
  'must be the repository’s https address on its code host, such as https://github.com/acme/shop: no user or password, query or fragment',
)

/**
 * A repository's web address as Shiplog keeps it: `https://host/path`, without credentials (a CI
 * origin often carries a token), query or fragment; a trailing `/` or `.git` dropped.
 */
export function checkWebUrl(raw: string): Outcome {
  const text = checkText(raw, MAX_WEB_URL)
  if (isInvalid(text)) return text
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return BAD_WEB_URL
  }
  if (
    url.protocol !== 'https:' ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    !/^https:\/\/[^/@\s]+(\/[^?#\s]*)?$/.test(text)
  ) {
    return BAD_WEB_URL
  }
  return text.replace(/\/+$/, '').replace(/\.git$/, '')
}

/**
 * The page of a commit on its code host: GitLab's `/-/commit/`, Bitbucket's `/commits/`, and
 * `/commit/` for GitHub, Gitea, Forgejo and the rest (GitLab redirects that form too).
 */
export function commitUrl(webUrl: string, sha: string): string {
  const host = new URL(webUrl).hostname
  if (host.includes('bitbucket')) return `${webUrl}/commits/${sha}`
  if (host.includes('gitlab')) return `${webUrl}/-/commit/${sha}`
  return `${webUrl}/commit/${sha}`
}
