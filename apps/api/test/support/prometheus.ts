/** One sample of a metric in Prometheus text, summed over matching labels; 0 when absent. */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`)
  let total = 0
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    if (wanted.every((pair) => line.includes(pair))) total += Number(line.split(' ').at(-1))
  }
  return total
}

/** One sample of a metric from a `/metrics` endpoint, summed over matching labels; 0 when absent. */
export async function sample(base: string, name: string, labels: Record<string, string> = {}) {
  return sampleOf(await (await fetch(`${base}/metrics`)).text(), name, labels)
}
