// GitLab proves a delivery with the hook's secret token itself, sent as `X-Gitlab-Token`.
// Compared through SHA-256 digests of equal length, byte by byte without stopping early, so the
// time taken says nothing about how much of a guess was right.

/** The SHA-256 of a token: what Shiplog stores of a GitLab integration's secret. */
export async function digestOf(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
}

/** Whether `header` is one of `secrets` (the current one, or a rotated one in its grace period). */
export async function gitLabTokenMatches(
  secrets: string[],
  header: string | null,
): Promise<boolean> {
  return gitLabTokenMatchesDigests(await Promise.all(secrets.map(digestOf)), header)
}

/**
 * Whether `header` is a token whose SHA-256 is one of `digests`: every digest is compared whole,
 * byte by byte, so the time taken says nothing about how much of a token was right.
 */
export async function gitLabTokenMatchesDigests(
  digests: Uint8Array[],
  header: string | null,
): Promise<boolean> {
  if (header === null) return false
  const given = await digestOf(header)
  let matched = false
  for (const expected of digests) {
    let difference = expected.length ^ given.length
    for (let index = 0; index < given.length; index++) {
      difference |= ((expected[index] ?? 0) as number) ^ (given[index] as number)
    }
    matched ||= difference === 0
  }
  return matched
}
