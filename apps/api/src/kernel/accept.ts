/**
 * Which of `offered` (media types, the first the default) a request's `Accept` header prefers:
 * the highest quality, exact types before `type/*` and `* /*`, ties to the earlier offer. A type
 * it does not name falls back to the default: the API never answers 406.
 */
export function preferredType<T extends string>(
  accept: string | null,
  offered: readonly [T, ...T[]],
): T {
  if (!accept) return offered[0]
  let best: { type: T; quality: number; exact: number } | undefined
  for (const part of accept.split(',')) {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase())
    const q = parameters.find((parameter) => parameter.startsWith('q='))
    const quality = q === undefined ? 1 : Number(q.slice(2))
    if (!(quality > 0)) continue
    for (const type of offered) {
      const exact =
        range === type ? 2 : range === `${type.split('/')[0]}/*` ? 1 : range === '*/*' ? 0 : -1
      if (exact < 0) continue
      const better =
        !best || quality > best.quality || (quality === best.quality && exact > best.exact)
      if (better) best = { type, quality, exact }
    }
  }
  return best?.type ?? offered[0]
}
