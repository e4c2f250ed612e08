import { type ParameterSource, parseParameters } from '@shiplog/schema'
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
  return parsed(schema, new URL(request.url).searchParams)
}

/** The path parameters of a route, parsed against `schema`, or a 422. */
export function pathOf<T extends TObject>(schema: T, params: Record<string, unknown>): Static<T> {
  return parsed(schema, params)
}
