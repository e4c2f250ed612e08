import { html } from '../html.ts'
import type { PageContent } from '../layout.ts'

/** The sign-in form: one API key with the read scope, pasted once, never put in a URL. */
export function signInPage(options: { next: string; error?: string }): PageContent {
  return {
    title: 'Sign in',
    body: html`<h1>Sign in to Shiplog</h1>
${options.error ? html`<p class="notice error" role="alert">${options.error}</p>` : ''}
<form class="stack" method="post" action="/ui/sign-in">
<input type="hidden" name="next" value="${options.next}">
<label for="key">API key with the <code>read</code> scope
<input id="key" name="key" type="password" autocomplete="off" required spellcheck="false"></label>
<button type="submit">Sign in</button>
</form>
<p class="muted">The key is exchanged for a session of 12 hours; it is not kept in the browser.
Ask whoever runs Shiplog for a key (<code>bun run keys create --scope read …</code>).</p>`,
  }
}
