import { authorsOf, replacedDeployment, repositoryNames } from '@shiplog/db/queries/dashboard'
import { allows, type DeploymentCommits, DeploymentVoidInput, validateBody } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { queryOf } from '../../../lib/parameters.ts'
import { HttpProblem, problems } from '../../../plugins/problem/index.ts'
import { ByRepositoryQuery } from '../../catalog/model.ts'
import { workspaceState } from '../../catalog/service.ts'
import { deploymentCommitsOf } from '../../deployments/commits.ts'
import { ListDeploymentsQuery } from '../../deployments/model.ts'
import {
  getDeployment,
  listWorkspaceDeployments,
  voidWorkspaceDeployment,
} from '../../deployments/service.ts'
import { type PageRequest, redirect, signedIn, UUID, type WebDeps } from '../signed-in.ts'
import { deploymentPage } from './deployment.ts'
import { deploymentsPage, type TimelineFilters } from './deployments.ts'
import { doraRoutes } from './dora-routes.ts'
import { incidentRoutes } from './incident-routes.ts'
import { overviewPage } from './overview.ts'

/** The query of a page URL, without the empty fields a GET form sends. */
export function pageQuery(url: URL): URLSearchParams {
  const query = new URLSearchParams()
  for (const [name, value] of url.searchParams) if (value !== '') query.set(name, value)
  return query
}

/** A request as the API module would see it, for the same validation of the same filters. */
export function apiRequestOf(query: URLSearchParams): Request {
  return new Request(`http://dashboard/?${query}`)
}

/** The pages behind sign-in: overview, timeline, deployment, DORA, incidents. */
export function dashboardPages(deps: WebDeps) {
  const clients = { replica: deps.readSql, primary: deps.sql }
  const read = <T>({ session }: PageRequest, work: () => Promise<T>) =>
    deps.reads.run(session.owner.keyId, work)

  return new Elysia()
    .get(
      '/ui',
      signedIn(deps, async (page) => {
        // Checked as GET /v1/state checks it: a NUL or an overlong name is a 422, not a query.
        const { repository } = queryOf(ByRepositoryQuery, apiRequestOf(pageQuery(page.url)))
        const owner = page.session.owner
        const [matrix, repositories] = await read(page, () =>
          Promise.all([
            workspaceState(deps.readSql, owner, repository === undefined ? {} : { repository }),
            repositoryNames(deps.readSql, owner.workspaceId),
          ]),
        )
        const ids = matrix.rows.flatMap((row) =>
          row.cells.flatMap((cell) => (cell ? [cell.id] : [])),
        )
        const authors = await read(page, () => authorsOf(deps.readSql, ids))
        return overviewPage(matrix, {
          ...(repository === undefined ? {} : { repository }),
          repositories,
          authors,
          now: new Date(),
        })
      }),
    )
    .get(
      '/ui/deployments',
      signedIn(deps, async (page) => {
        const query = pageQuery(page.url)
        const filters = Object.fromEntries(query) as TimelineFilters
        const parsed = queryOf(ListDeploymentsQuery, apiRequestOf(query))
        const list = await read(page, () =>
          listWorkspaceDeployments(clients, page.session.owner, parsed),
        )
        return deploymentsPage(list, filters)
      }),
    )
    .get(
      '/ui/deployments/:id',
      signedIn(deps, async (page) => {
        const id = page.url.pathname.slice('/ui/deployments/'.length)
        if (!UUID.test(id))
          throw new HttpProblem(404, 'not-found', 'Not Found', 'No such deployment.')
        const owner = page.session.owner
        const deployment = await read(page, () => getDeployment(clients, deps.boss, owner, id))
        const commits = await read(page, () =>
          deploymentCommitsOf(clients, owner, id).catch((error): DeploymentCommits | undefined => {
            if (error instanceof HttpProblem && error.status === 404) return undefined
            throw error
          }),
        )
        const replaced = await read(page, () =>
          replacedDeployment(deps.readSql, owner.workspaceId, deployment.duplicateOf ?? id),
        )
        return deploymentPage(deployment, commits, replaced, {
          ...page.viewer,
          mayVoid: allows(owner.scopes, 'admin'),
          ...(page.url.searchParams.has('voided') ? { notice: 'Voided.' } : {}),
        })
      }),
    )
    .post(
      '/ui/deployments/:id/void',
      signedIn(deps, async (page) => {
        const id = page.url.pathname.split('/')[3] ?? ''
        if (!UUID.test(id))
          throw new HttpProblem(404, 'not-found', 'Not Found', 'No such deployment.')
        const owner = page.session.owner
        if (!allows(owner.scopes, 'admin')) {
          throw new HttpProblem(
            403,
            'forbidden',
            'Forbidden',
            'Voiding needs a key with the admin scope: sign in with one.',
          )
        }
        const form = page.form
        if (form.get('confirm') !== 'yes') {
          throw new HttpProblem(
            422,
            'validation',
            'Not confirmed',
            'Tick the box that confirms the deployment leaves every figure, then void it.',
          )
        }
        // The reason is checked as DELETE /v1/deployments/{id} checks its body.
        const given = (form.get('reason') ?? '').trim()
        const body = validateBody(DeploymentVoidInput, given ? { reason: given } : {})
        if (!body.ok) throw problems.validation(body.errors)
        const reason = (body.value.reason as string | undefined) ?? null
        await voidWorkspaceDeployment(clients, deps.boss, owner, id, reason)
        return redirect(`/ui/deployments/${id}?voided=1`)
      }),
      { parse: 'none' },
    )
    .use(doraRoutes(deps))
    .use(incidentRoutes(deps))
}
