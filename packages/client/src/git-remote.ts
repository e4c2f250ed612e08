import { checkWebUrl } from '@shiplog/schema'

/**
 * `owner/name` (or `group/sub/name`) of a Git remote URL: scp-like (`git@host:owner/name.git`),
 * `ssh://`, `https://` or `git://`. Undefined when it names no repository path.
 */
export function repositoryFromRemote(remote: string): string | undefined {
  const trimmed = remote.trim()
  const scpLike = /^[^@/\s]+@[^:/\s]+:(?!\/)(.+)$/.exec(trimmed)
  let path: string | undefined = scpLike?.[1]
  if (path === undefined) {
    try {
      path = new URL(trimmed).pathname
    } catch {
      return undefined
    }
  }
  const cleaned = path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
  return /^[^\s/]+(?:\/[^\s/]+)+$/.test(cleaned) ? cleaned : undefined
}

/**
 * The repository's web address (`https://host/owner/name`) of a Git remote URL, for links to its
 * commits: the scp-like and `ssh://` forms are turned into https, credentials (a CI's token) and
 * `.git` dropped. Undefined when it names no repository on a host.
 */
export function webUrlFromRemote(remote: string): string | undefined {
  const trimmed = remote.trim()
  const scpLike = /^[^@/\s]+@([^:/\s]+):(?!\/)(.+)$/.exec(trimmed)
  let host: string | undefined = scpLike?.[1]
  let path: string | undefined = scpLike?.[2]
  if (!scpLike) {
    try {
      const url = new URL(trimmed)
      if (!['https:', 'http:', 'ssh:', 'git:'].includes(url.protocol)) return undefined
      // An ssh port is not the web's; an https one is.
      host = url.protocol === 'https:' ? url.host : url.hostname
      path = url.pathname
    } catch {
      return undefined
    }
  }
  const repository = repositoryFromRemote(`https://${host}/${path?.replace(/^\/+/, '')}`)
  if (!host || repository === undefined) return undefined
  const checked = checkWebUrl(`https://${host}/${repository}`)
  return typeof checked === 'string' ? checked : undefined
}
