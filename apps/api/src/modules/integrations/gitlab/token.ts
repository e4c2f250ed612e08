// GitLab proves a delivery with the hook's secret token itself, sent as `X-Gitlab-Token`.
// Compared through SHA-256 digests of equal length, byte by byte without stopping early, so the
// time taken says nothing about how much of a guess was right.

async function digestOf(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
}

/** Whether `header` is one of `secrets` (the current one, or a rotated one in its grace period). */
export async function gitLabTokenMatches(
  secrets: string[],
  header: string | null,
): Promise<boolean> {
  if (header === null) return false
  const given = await digestOf(header)
  let matched = false
  for (const secret of secrets) {
    const expected = await digestOf(secret)
    let difference = 0
    for (let index = 0; index < expected.length; index++) {
      difference |= (expected[index] as number) ^ (given[index] as number)
    }
    matched ||= difference === 0
  }
  return matched
}
