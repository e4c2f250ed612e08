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
import { commitRoutes } from './routes/commits.ts'
import { compareRoutes } from './routes/compare.ts'
import { deploymentRoutes } from './routes/deployments.ts'
import { doraRoutes } from './routes/dora.ts'
import { incidentRoutes } from './routes/incidents.ts'
import { keyRoutes } from './routes/keys.ts'
import { overviewRoutes } from './routes/overview.ts'
import { signInRoutes } from './routes/sign-in.ts'
import { singleSignOnRoutes } from './routes/single-sign-on.ts'
import { workspaceRoutes } from './routes/workspace.ts'

export type { WebDeps } from './deps.ts'

/**
 * The dashboard for people: server-rendered pages under /ui, signed in through the OpenID
 * provider (single sign-on) or with a read key.
 */
export function webRoutes(deps: WebDeps) {
  return new Elysia()
    .get('/', () => redirect('/ui'))
    .get('/robots.txt', () => robotsResponse())
    .get(STYLESHEET_PATH, ({ request }) => stylesheetResponse(request))
    .get(SCRIPT_PATH, ({ request }) => scriptResponse(request))
    .get(FAVICON_PATH, ({ request }) => faviconResponse(request))
    .use(signInRoutes(deps))
    .use(singleSignOnRoutes(deps))
    .use(workspaceRoutes(deps))
    .use(keyRoutes(deps))
    .use(overviewRoutes(deps))
    .use(compareRoutes(deps))
    .use(deploymentRoutes(deps))
    .use(commitRoutes(deps))
    .use(doraRoutes(deps))
    .use(incidentRoutes(deps))
}
