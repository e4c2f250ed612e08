// What a page takes from its request (query, path, form), checked as the API checks the same
// input, so a value the API refuses with a 422 is refused by the page with the same errors.
import { parseParameters, UUID } from '@shiplog/schema'
import type { Static, TObject } from '@sinclair/typebox'
import { HttpProblem, problems } from '../../kernel/problems.ts'
import { readBounded } from '../../route-table/json-body.ts'

/** The query of a page URL, without the empty fields a GET form sends. */
export function pageQuery(url: URL): URLSearchParams {
  const query = new URLSearchParams()
  for (const [name, value] of url.searchParams) if (value !== '') query.set(name, value)
  return query
}

/** The input of a page that is its query as typed: what it means takes the page's reads. */
export const queryInput = (page: { url: URL }) => pageQuery(page.url)

/** `query` parsed against an API endpoint's query schema, or that endpoint's 422. */
export function parametersOf<T extends TObject>(schema: T, query: URLSearchParams): Static<T> {
  const result = parseParameters(schema, query)
  if (!result.ok) throw problems.validation(result.errors)
  return result.value
}

/** The id in a page's path (`/ui/<section>/<id>…`), or a 404 naming what is missing. */
export function pathId(url: URL, noun: 'deployment' | 'incident' | 'integration'): string {
  const id = url.pathname.split('/')[3] ?? ''
  if (!UUID.test(id)) throw problems.notFound(`No such ${noun}.`)
  return id
}

/**
 * The address this server was reached at, as the browser sees it (through an Ingress that says
 * so with `X-Forwarded-Proto` and `X-Forwarded-Host`): for instructions that name it.
 */
export function baseUrlOf(request: Request): string {
  const url = new URL(request.url)
  const first = (name: string) => request.headers.get(name)?.split(',')[0]?.trim()
  const protocol = first('x-forwarded-proto') === 'https' ? 'https' : url.protocol.slice(0, -1)
  const host = first('x-forwarded-host') ?? request.headers.get('host') ?? url.host
  return /^[\w.:[\]-]+$/.test(host) ? `${protocol}://${host}` : url.origin
}

// A dashboard form holds a few short fields; anything larger or slower is not from our pages.
const FORM_LIMITS = { maxBytes: 16 * 1024, timeoutMs: 10_000 }

/** The fields of a form post (application/x-www-form-urlencoded), or a 4xx problem. */
export async function formOf(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get('content-type') ?? ''
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw problems.validation(
      [{ field: 'body', message: 'must be a form (application/x-www-form-urlencoded)' }],
      'Send this form from its page.',
    )
  }
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > FORM_LIMITS.maxBytes) throw problems.bodyTooLarge(FORM_LIMITS.maxBytes)
  // Counted as it arrives: a chunked post declares no length.
  const bytes = await readBounded(request, FORM_LIMITS).catch((error) => {
    throw error instanceof HttpProblem ? error : problems.bodyUnreadable()
  })
  return new URLSearchParams(new TextDecoder().decode(bytes))
}
