import { expect } from 'bun:test'
import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { csvRecords } from './csv.ts'

/** Clicks the link of that name, which downloads a CSV, and answers its rows by column. */
export async function downloadCsv(
  page: Page,
  link: string,
): Promise<Record<string, string | null>[]> {
  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: link }).click()
  return csvRecords(await readFile((await (await download).path()) as string, 'utf8'))
}

/**
 * Each CSV row says what its JSON item says, column by column, as text (a column `a.b` names a
 * nested field; an empty field is a JSON null), and none is missing or extra.
 */
export function expectCsvOfJson(
  rows: Record<string, string | null>[],
  items: Record<string, unknown>[],
): void {
  expect(rows.length).toBe(items.length)
  for (const [index, row] of rows.entries()) {
    const item = items[index] as Record<string, unknown>
    for (const [column, value] of Object.entries(row)) {
      const [key, field] = column.split('.') as [string, string | undefined]
      const nested = item[key] as Record<string, unknown> | undefined
      const expected = (field === undefined ? item[key] : nested?.[field]) ?? null
      expect({ column, value }).toEqual({
        column,
        value: expected === null ? null : String(expected),
      })
    }
  }
}
