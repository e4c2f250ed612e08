import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { SCRIPT_PATH, STYLESHEET_PATH } from './assets.ts'
import { type Html, html } from './html.ts'

// Nothing but our own stylesheet loads, no script runs inline, no page frames ours, and forms
// post only here.
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

const SECTIONS = [
  { path: '/ui', label: 'Overview' },
  { path: '/ui/deployments', label: 'Deployments' },
  { path: '/ui/dora', label: 'DORA' },
  { path: '/ui/incidents', label: 'Incidents' },
] as const

/** Who is signed in, for the header: the workspace and the token its forms send back. */
export interface Viewer {
  owner: KeyOwner
  csrfToken: string
}

/** A page of the dashboard: title, which section it belongs to, and its content. */
export interface PageContent {
  title: string
  section?: (typeof SECTIONS)[number]['path']
  body: Html
}

/** The whole document around a page's content. */
export function layout(page: PageContent, viewer?: Viewer): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Shiplog</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
<script src="${SCRIPT_PATH}" defer></script>
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header class="top">
<a class="brand" href="/ui">Shiplog</a>
${
  viewer
    ? html`<nav aria-label="Sections"><ul>${SECTIONS.map(
        ({ path, label }) =>
          html`<li><a href="${path}"${page.section === path ? html` aria-current="page"` : ''}>${label}</a></li>`,
      )}</ul></nav>
<div class="who"><span>Workspace <strong>${viewer.owner.workspaceSlug}</strong></span>
<form method="post" action="/ui/sign-out"><input type="hidden" name="csrf" value="${viewer.csrfToken}"><button class="secondary" type="submit">Sign out</button></form></div>`
    : ''
}
</header>
<main id="content">
${page.body}
</main>
<footer class="page-footer muted"><p><a href="/docs">API reference</a></p></footer>
</body>
</html>`
}

/** A complete HTML response for a page. */
export function pageResponse(document: Html, status = 200, headers: Record<string, string> = {}) {
  return new Response(document.text, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-store',
      ...headers,
    },
  })
}
