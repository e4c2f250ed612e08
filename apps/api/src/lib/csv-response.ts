import { problems } from '../plugins/problem/index.ts'
import type { ReadSlots } from '../plugins/rate-limit/read-slots.ts'
import { pushedStream } from './pushed-stream.ts'

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
