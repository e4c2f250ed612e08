const fold = (s: string) => s.toLowerCase().replace(/[_-]/g, '')

// Levenshtein distance, giving up (returning max + 1) once it must exceed `max`.
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1
      const d = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost)
      row.push(d)
      if (d < rowMin) rowMin = d
    }
    if (rowMin > max) return max + 1
    prev = row
  }
  return prev[b.length] ?? max + 1
}

/**
 * The known name closest to `key`: equal ignoring case, `_` and `-`, or within edit distance 2
 * of it after that folding. Ties go to the earliest known name.
 */
export function suggestField(key: string, known: readonly string[]): string | undefined {
  const folded = fold(key)
  let best: string | undefined
  let bestDistance = 3
  for (const name of known) {
    const d = editDistance(folded, fold(name), bestDistance - 1)
    if (d < bestDistance) {
      best = name
      bestDistance = d
    }
  }
  return best
}
