import { Elysia } from 'elysia'
import {
  FAVICON_PATH,
  faviconResponse,
  robotsResponse,
  SCRIPT_PATH,
  STYLESHEET_PATH,
  scriptResponse,
  stylesheetResponse,
} from './assets.ts'
import type { WebDeps } from './deps.ts'
import { redirect } from './responses.ts'
import { commitPages } from './routes/commits.ts'
import { comparePages } from './routes/compare.ts'
import { deploymentPages } from './routes/deployments.ts'
import { doraPages } from './routes/dora.ts'
import { incidentPages } from './routes/incidents.ts'
import { integrationPages } from './routes/integrations.ts'
import { keyPages } from './routes/keys.ts'
import { overviewPages } from './routes/overview.ts'
import { signInPages } from './routes/sign-in.ts'
import { singleSignOnPages } from './routes/single-sign-on.ts'
import { workspacePages } from './routes/workspace.ts'
import { signedInPages } from './signed-in.ts'

export type { WebDeps } from './deps.ts'

/**
 * The dashboard for people: server-rendered pages under /ui, signed in through the OpenID
 * provider (single sign-on) or with a read key.
 */
export function webRoutes(deps: WebDeps) {
  const pages = signedInPages(deps)
  return new Elysia()
    .get('/', () => redirect('/ui'))
    .get('/robots.txt', () => robotsResponse())
    .get(STYLESHEET_PATH, ({ request }) => stylesheetResponse(request))
    .get(SCRIPT_PATH, ({ request }) => scriptResponse(request))
    .get(FAVICON_PATH, ({ request }) => faviconResponse(request))
    .use(signInPages(pages))
    .use(singleSignOnPages(deps))
    .use(workspacePages(pages))
    .use(keyPages(pages))
    .use(overviewPages(pages))
    .use(comparePages(pages))
    .use(deploymentPages(pages))
    .use(commitPages(pages))
    .use(doraPages(pages))
    .use(incidentPages(pages))
    .use(integrationPages(pages))
}
