import { type Html, html } from './html.ts'

// What the paged lists of the dashboard (deployments, commits) share: a URL that carries every
// filter, so a filtered view is a link to share; the filter form's fields; the pager.

/** A list's filters as its URL carries them: text each, `cursor` for a page past the first. */
export interface ListFilters {
  cursor?: string
  limit?: string
}

const valuesOf = (filters: object) => filters as Record<string, string | undefined>

/** The list at `path` (or its CSV) with these filters. */
export function listUrl(path: string, filters: object): string {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(valuesOf(filters))) if (value) query.set(name, value)
  const text = query.toString()
  return text ? `${path}?${text}` : path
}

/** The filters without the page (the pager's), and without the page size either (the CSV's). */
export function unpaged<Filters extends ListFilters>(filters: Filters) {
  const { cursor: _, ...withoutCursor } = filters
  // The CSV holds every matching row: no page size.
  const { limit: __, ...exported } = withoutCursor
  return { withoutCursor, exported }
}

/** The text fields of a filter form, each labelled and keeping what was typed; dates with an example. */
export function textFilters<Filters extends ListFilters>(
  idPrefix: string,
  fields: readonly (readonly [keyof Filters & string, string])[],
  filters: Filters,
): Html[] {
  return fields.map(
    ([name, label]) =>
      html`<label for="${idPrefix}-${name}">${label}<input id="${idPrefix}-${name}" name="${name}" value="${valuesOf(filters)[name] ?? ''}"${
        name === 'since' || name === 'until' ? html` placeholder="YYYY-MM-DD"` : ''
      }></label>`,
  )
}

/** A filter of `true`, `false` or either, as a select: `choices` names each, either first. */
export function yesNoFilter(
  idPrefix: string,
  filter: { name: string; label: string; value: string | undefined },
  choices: readonly [either: string, yes: string, no: string],
): Html {
  const [either, yes, no] = choices
  const { name, label, value } = filter
  return html`<label for="${idPrefix}-${name}">${label}<select id="${idPrefix}-${name}" name="${name}">
<option value="">${either}</option>
<option value="true"${value === 'true' ? html` selected` : ''}>${yes}</option>
<option value="false"${value === 'false' ? html` selected` : ''}>${no}</option>
</select></label>`
}

/** Newest and Older: the first page again, and the page after this one. */
export function pager(
  path: string,
  filters: ListFilters,
  nextCursor: string | null | undefined,
): Html {
  const { withoutCursor } = unpaged(filters)
  return html`<nav class="pager" aria-label="Pages">
${filters.cursor ? html`<a href="${listUrl(path, withoutCursor)}">Newest</a>` : ''}
${nextCursor ? html`<a href="${listUrl(path, { ...withoutCursor, cursor: nextCursor })}" rel="next">Older</a>` : ''}
</nav>`
}
