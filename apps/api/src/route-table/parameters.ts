import { type FieldError, type ParameterSource, parseParameters } from '@shiplog/schema'
import type { Static, TObject } from '@sinclair/typebox'
import { problems } from '../kernel/problems.ts'

function parsed<T extends TObject>(schema: T, source: ParameterSource): Static<T> {
  const result = parseParameters(schema, source)
  if (!result.ok) throw problems.validation(result.errors)
  return result.value
}

/**
 * The query string of `request`, parsed against `schema` into typed values, or a 422 listing
 * every bad parameter. Read from the URL itself rather than the framework's parsed object, which
 * keeps only the last of repeated parameters.
 */
export function queryOf<T extends TObject>(schema: T, request: Request): Static<T> {
  const url = new URL(request.url)
  const misencoded = misencodedParameters(url.search)
  if (misencoded.length > 0) throw problems.validation(misencoded)
  return parsed(schema, url.searchParams)
}

/** `text` of a query string decoded (`+` as a space), or undefined if it is not UTF-8. */
function decodedOrUndefined(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return undefined
  }
}

/**
 * The parameters whose percent-encoding is not UTF-8 (`?app=%ff%fe`): URLSearchParams would turn
 * them into U+FFFD and filter on a name nobody sent, so they are refused, each by its name.
 */
function misencodedParameters(search: string): FieldError[] {
  if (!search.includes('%')) return []
  const errors: FieldError[] = []
  for (const pair of search.slice(1).split('&')) {
    const [name = '', value = ''] = pair.split(/=(.*)/s)
    const decodedName = decodedOrUndefined(name)
    if (decodedName !== undefined && decodedOrUndefined(value) !== undefined) continue
    errors.push({
      field: decodedName ?? name,
      message: 'is not percent-encoded UTF-8: encode the text as UTF-8 before escaping it',
    })
  }
  return errors
}

/** The path parameters of a route, parsed against `schema`, or a 422. */
export function pathOf<T extends TObject>(schema: T, params: Record<string, unknown>): Static<T> {
  return parsed(schema, params)
}
