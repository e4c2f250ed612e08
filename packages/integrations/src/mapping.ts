// How an integration turns a delivery into Shiplog's fields: one shape for every source. A field
// maps to a fixed string, to `{ "from": "<dot path>" }` into the delivery's JSON body (or
// `headers.<name>`, a header of the request), or to a list of these tried in order; the first
// that gives a non-blank string wins. A field the mapping leaves out, or that nothing in it
// gives, falls back to the source's own default (github/deployment-status.ts says GitHub's).

import type { IntegrationMapping, MappingValue } from '@shiplog/schema/integration'

export type { IntegrationMapping, MappingValue }

/** A delivery as the mapping reads it: its parsed JSON body and the request's headers. */
export interface Delivery {
  body: unknown
  headers: Headers
}

/** Whether a parsed JSON value is an object (not null, not an array): what a path can step into. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The value at a dot path of the body (`a.b.c`), or of a header (`headers.<name>`), as text. */
export function valueAt(delivery: Delivery, path: string): string | undefined {
  const [first, ...rest] = path.split('.')
  if (first === 'headers' && rest.length > 0) {
    return nonBlank(delivery.headers.get(rest.join('.')) ?? undefined)
  }
  let value: unknown = delivery.body
  for (const key of path.split('.')) {
    if (!isJsonObject(value)) return undefined
    // Own properties only: a path never reaches Object.prototype.
    value = Object.hasOwn(value, key) ? value[key] : undefined
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return typeof value === 'string' ? nonBlank(value) : undefined
}

/** What the mapping gives for a field: the first of its values that gives a non-blank string. */
export function mappedValue(
  value: MappingValue | undefined,
  delivery: Delivery,
): string | undefined {
  if (value === undefined) return undefined
  for (const each of Array.isArray(value) ? value : [value]) {
    const found = typeof each === 'string' ? nonBlank(each) : valueAt(delivery, each.from)
    if (found !== undefined) return found
  }
  return undefined
}

// Go's text/template writes `<no value>` for a key the object lacks (Argo CD's notification
// templates, when an Application has no such label): never a value anyone meant.
const MISSING_IN_GO_TEMPLATE = '<no value>'

const nonBlank = (text: string | undefined) => {
  const trimmed = text?.trim()
  return trimmed && trimmed !== MISSING_IN_GO_TEMPLATE ? trimmed : undefined
}
