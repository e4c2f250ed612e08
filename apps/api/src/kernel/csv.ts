import { problems } from './problems.ts'
import { pushedStream } from './pushed-stream.ts'
import type { ReadSlots } from './read-slots.ts'

// A spreadsheet runs a cell that starts like a formula; a leading ' makes it text (OWASP's advice
// for CSV injection). Pipelines name apps and write descriptions, so any cell may.
const FORMULA_START = /^[=+\-@\t\r]/

/** One field as RFC 4180 writes it: quoted when it holds a quote, comma or line break. */
export function csvField(value: string | null): string {
  if (value === null) return ''
  const text = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** Records as CSV lines, `columns` in order (CRLF ends each, as RFC 4180 has it). */
export function csvLines<C extends string>(
  columns: readonly C[],
  records: readonly { [column in C]?: string | number | null }[],
): string {
  let text = ''
  for (const record of records) {
    text += `${columns.map((column) => cellOf(record[column])).join(',')}\r\n`
  }
  return text
}

// A number is written as it is: a negative one (a lead time a skewed clock made negative) is a
// number to a spreadsheet, not a formula, and must read back as the JSON's.
const cellOf = (value: string | number | null | undefined) =>
  typeof value === 'number' ? String(value) : csvField(value ?? null)

/**
 * A 422 for `limit` or `cursor` given to an export (`Accept: text/csv`), which answers every
 * matching row, not a page; `rows` names them ("deployment", "commit").
 */
export function refusePaging(given: URLSearchParams, rows: string): void {
  const paging = ['limit', 'cursor'].filter((name) => given.has(name))
  if (paging.length > 0) {
    throw problems.validation(
      paging.map((field) => ({
        field,
        message: `does not apply to a CSV export, which holds every matching ${rows}`,
      })),
    )
  }
}

/**
 * A CSV attachment fed by `produce`, streamed (pushedStream: a chunk or two in memory). `slot`'s
 * read slot is held until the last byte is sent; a failure before the first byte is answered as
 * a problem.
 */
export async function csvResponse(
  reads: ReadSlots,
  slot: string,
  filename: string,
  produce: (push: (text: string) => Promise<void>) => Promise<void>,
): Promise<Response> {
  const body = await new Promise<ReadableStream<Uint8Array>>((resolve, reject) => {
    reads
      .run(slot, async () => {
        const out = pushedStream(produce)
        out.ready.then(() => resolve(out.stream), reject)
        // A failure after the first byte has errored the body, so the reader sees the transfer
        // cut short (no final chunk); it is not a failure of the slot, which is freed either way.
        await out.done.catch(() => {})
      })
      .catch(reject)
  })
  return new Response(body, { headers: csvHeaders(filename) })
}

/** The headers of a CSV download named `filename`: RFC 4180 with its header line. */
export const csvHeaders = (filename: string) => ({
  'content-type': 'text/csv; charset=utf-8; header=present',
  'content-disposition': `attachment; filename="${filename}"`,
})
