import { allows } from '@shiplog/schema'
import { FAVICON_PATH, SCRIPT_PATH, STYLESHEET_PATH } from '../assets.ts'
import type { Principal } from '../principal.ts'
import { type Html, html } from './html.ts'

const SECTIONS = [
  { path: '/ui', label: 'Overview' },
  { path: '/ui/deployments', label: 'Deployments' },
  { path: '/ui/dora', label: 'DORA' },
  { path: '/ui/incidents', label: 'Incidents' },
  { path: '/ui/integrations', label: 'Integrations', admin: true },
  { path: '/ui/keys', label: 'API keys', admin: true },
] as const

/** Who is signed in, for the header: who, in which workspace, and the token forms send back. */
export interface Viewer {
  principal: Principal
  csrfToken: string
}

/** The header's right side: who is signed in, a workspace switch for people with several. */
function who(viewer: Viewer): Html {
  const { principal } = viewer
  const csrf = html`<input type="hidden" name="csrf" value="${viewer.csrfToken}">`
  const workspace =
    principal.workspaces.length > 1
      ? html`<form method="post" action="/ui/workspace" class="switch">${csrf}<label for="workspace-switch">Workspace</label>
<select id="workspace-switch" name="workspace" data-autosubmit>${principal.workspaces.map(
          (slug) =>
            html`<option value="${slug}"${slug === principal.workspaceSlug ? html` selected` : ''}>${slug}</option>`,
        )}</select><button class="secondary" type="submit">Switch</button></form>`
      : html`<span>Workspace <strong>${principal.workspaceSlug}</strong></span>`
  return html`<div class="who"><span>${principal.label}${principal.role ? html` <span class="badge">${principal.role}</span>` : ''}</span>
${workspace}
<form method="post" action="/ui/sign-out">${csrf}<button class="secondary" type="submit">Sign out</button></form></div>`
}

/** A page of the dashboard: title, which section it belongs to, and its content. */
export interface PageContent {
  title: string
  section?: (typeof SECTIONS)[number]['path']
  /** Where to go on to at once: a refresh, which no form-action or cookie rule holds back. */
  refresh?: string
  /** What the page is for, in a sentence: its meta description. */
  description?: string
  body: Html
}

const DESCRIPTION =
  'Shiplog: what is deployed where, what is waiting for production, and how the team delivers.'

/** The whole document around a page's content. */
export function layout(page: PageContent, viewer?: Viewer): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Shiplog</title>
<meta name="description" content="${page.description ?? DESCRIPTION}">
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
${page.refresh ? html`<meta http-equiv="refresh" content="0; url=${page.refresh}">` : ''}
<link rel="stylesheet" href="${STYLESHEET_PATH}">
<script src="${SCRIPT_PATH}" defer></script>
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header class="top">
<a class="brand" href="/ui">Shiplog</a>
${
  viewer
    ? html`<nav aria-label="Sections"><ul>${SECTIONS.filter(
        (section) => !('admin' in section) || allows(viewer.principal.scopes, 'admin'),
      ).map(
        ({ path, label }) =>
          html`<li><a href="${path}"${page.section === path ? html` aria-current="page"` : ''}>${label}</a></li>`,
      )}</ul></nav>
${who(viewer)}`
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
