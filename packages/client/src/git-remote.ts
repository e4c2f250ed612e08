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
