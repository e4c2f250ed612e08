import { CursorParameter, type ParameterSource, parseParameters } from '@shiplog/schema'
import { type Static, type TObject, Type } from '@sinclair/typebox'
import { problems } from '../plugins/problem/index.ts'

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
  return parsed(schema, new URL(request.url).searchParams)
}

/** The path parameters of a route, parsed against `schema`, or a 422. */
export function pathOf<T extends TObject>(schema: T, params: Record<string, unknown>): Static<T> {
  return parsed(schema, params)
}

/** The query of an endpoint that takes no parameters: any given is refused, not ignored. */
export const NoQuery = Type.Object({}, { additionalProperties: false })

/** The page parameters every list takes: its size, and where the previous page ended. */
export const PageParameters = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Page size, at most 100' }),
  ),
  cursor: Type.Optional(CursorParameter('`nextCursor` of the previous page')),
}

/** An optional name filter: an application, environment or repository, matched in any case. */
export const NameParameter = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 255, description }))
