// Every page is built from `html` templates: interpolated values are escaped unless they are
// themselves `Html` (built by `html` or marked with `raw`), so a name like `<script>` renders as
// text wherever it appears.

/** Markup that is safe to insert as is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character)
}

/** What a template accepts: text (escaped), numbers, markup, nothing, or lists of them. */
export type HtmlValue = string | number | Html | null | undefined | false | HtmlValue[]

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return ''
  if (value instanceof Html) return value.text
  if (Array.isArray(value)) return value.map(render).join('')
  return escapeHtml(String(value))
}

/** A template whose values are escaped: `html\`<td>${name}</td>\``. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let text = strings[0] ?? ''
  values.forEach((value, index) => {
    text += render(value) + (strings[index + 1] ?? '')
  })
  return new Html(text)
}

/** Markup produced elsewhere and trusted (an SVG chart built from escaped parts). */
export function raw(text: string): Html {
  return new Html(text)
}

/**
 * Text a user wrote (a name, a version, a note), isolated from the text around it: a
 * right-to-left name, or one stored before names refused bidi controls (a U+202E), cannot
 * reorder what follows it on the page.
 */
export function bdi(text: string): Html {
  return html`<bdi>${text}</bdi>`
}

/**
 * The same isolation where markup cannot go (a page title, an attribute): the text between
 * FIRST STRONG ISOLATE (U+2068) and POP DIRECTIONAL ISOLATE (U+2069), what `<bdi>` means.
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`
}
