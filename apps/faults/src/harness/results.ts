import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/** Where scenarios leave their figures for `report.ts` (git-ignored). */
export const RESULTS_DIR = fileURLToPath(new URL('../../../../.data/faults/', import.meta.url))

/** What one scenario measured, for docs/reliability.md. */
export interface ScenarioResult {
  id: string
  title: string
  figures: Record<string, string | number>
  passed: boolean
}

/** Saves a scenario's figures from its last run. */
export async function recordScenario(result: ScenarioResult): Promise<void> {
  await mkdir(RESULTS_DIR, { recursive: true })
  await writeFile(
    `${RESULTS_DIR}${result.id}.json`,
    JSON.stringify({ ...result, at: new Date().toISOString() }, null, 2),
  )
}
