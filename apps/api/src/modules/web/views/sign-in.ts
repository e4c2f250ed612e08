import { html } from './html.ts'
import type { PageContent } from './layout.ts'

/** What the sign-in page offers: single sign-on, the key form, or both. */
export interface SignInOptions {
  next: string
  /** The provider's name on the button, when single sign-on is on. */
  provider?: string
  keys: boolean
  error?: string
  notice?: string
}

/** The sign-in page: a link to the identity provider and/or an API key, pasted once. */
export function signInPage(options: SignInOptions): PageContent {
  const sso = `/ui/sign-in/sso?${new URLSearchParams({ next: options.next })}`
  return {
    title: 'Sign in',
    body: html`<h1>Sign in to Shiplog</h1>
${options.error ? html`<p class="notice error" role="alert">${options.error}</p>` : ''}
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${options.provider ? html`<p><a class="button" href="${sso}">Sign in with ${options.provider}</a></p>` : ''}
${
  options.keys
    ? html`${options.provider ? html`<h2>Or with an API key</h2>` : ''}<form class="stack" method="post" action="/ui/sign-in">
<input type="hidden" name="next" value="${options.next}">
<label for="key">API key with the <code>read</code> scope
<input id="key" name="key" type="password" autocomplete="off" required spellcheck="false"></label>
<button type="submit">Sign in</button>
</form>
<p class="muted">The key is exchanged for a session of 12 hours; it is not kept in the browser.
Ask whoever runs Shiplog for a key (<code>bun run keys create --scope read …</code>).</p>`
    : ''
}`,
  }
}

/**
 * The callback's answer: signed in, on to `next` at once (a refresh, which works without
 * JavaScript), with a link for browsers that do not follow it.
 */
export function signedInPage(next: string): PageContent {
  return {
    title: 'Signed in',
    refresh: next,
    body: html`<h1>Signed in</h1>
<p><a href="${next}">Continue to Shiplog</a></p>`,
  }
}

/**
 * Signed out here; on to the provider's end-session page to sign out there too. A page with a
 * refresh, not a redirect: the pages' policy lets forms post only to Shiplog (form-action
 * 'self'), and a redirect answering the sign-out form would be such a post's destination.
 */
export function signedOutPage(provider: string, endSession: string): PageContent {
  return {
    title: 'Signed out',
    refresh: endSession,
    body: html`<h1>Signed out of Shiplog</h1>
<p><a href="${endSession}">Sign out of ${provider} too</a></p>`,
  }
}
