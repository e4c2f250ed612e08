// What the pages offer to download: a page's rows as CSV, a comparison's release notes.
import { CompareQuery, DoraQuery, ListCommitsQuery, ListDeploymentsQuery } from '@shiplog/schema'
import { csvHeaders, csvResponse } from '../../kernel/csv.ts'
import { exportWorkspaceCommits } from '../commits/service.ts'
import { releaseNotes } from '../compare/release-notes.ts'
import { compareEnvironments } from '../compare/service.ts'
import { exportWorkspaceDeployments } from '../deployments/export.ts'
import { doraSeriesCsv } from '../dora/series-csv.ts'
import { doraMetricsOf } from '../dora/service.ts'
import type { WebDeps } from './deps.ts'
import { pageQuery, parametersOf } from './page-input.ts'
import type { PageRequest } from './signed-in.ts'

const clientsOf = (web: WebDeps) => ({ replica: web.readSql, primary: web.sql })

/** `/ui/deployments.csv`: every deployment the timeline's filters match, streamed. */
export function deploymentsCsv(page: PageRequest, web: WebDeps): Promise<Response> {
  const query = pageQuery(page.url)
  const parsed = parametersOf(ListDeploymentsQuery, query)
  const { principal } = page
  return exportWorkspaceDeployments(
    clientsOf(web),
    web.queue,
    web.reads,
    principal,
    principal.slot,
    parsed,
    query,
  )
}

/** `/ui/commits.csv`: every commit the commits page's filters match, streamed. */
export function commitsCsv(page: PageRequest, web: WebDeps): Promise<Response> {
  const { limit: _, cursor: __, ...parsed } = parametersOf(ListCommitsQuery, pageQuery(page.url))
  return csvResponse(web.reads, page.principal.slot, 'commits.csv', (push) =>
    exportWorkspaceCommits(clientsOf(web), page.principal, parsed, push),
  )
}

/**
 * `/ui/dora.csv`: the DORA page's series as the API's CSV, from the API's parameters (the page's
 * link carries the exact window it shows).
 */
export async function doraCsv(page: PageRequest): Promise<Response> {
  const parsed = parametersOf(DoraQuery, pageQuery(page.url))
  const metrics = await page.snapshot(({ sql }) => doraMetricsOf(sql, page.principal, parsed))
  return new Response(doraSeriesCsv(metrics), { headers: csvHeaders('dora.csv') })
}

/** `/ui/compare.md`: a comparison's release notes, as a Markdown file. */
export async function releaseNotesFile(page: PageRequest): Promise<Response> {
  const parsed = parametersOf(CompareQuery, pageQuery(page.url))
  const comparison = await page.snapshot(({ sql }) =>
    compareEnvironments(sql, page.principal, parsed),
  )
  const name = `${comparison.app}-${comparison.from.environment}-to-${comparison.to.environment}`
    .replace(/[^\w.-]+/g, '-')
    .slice(0, 100)
  return new Response(releaseNotes(comparison), {
    headers: {
      'content-type': 'text/markdown; charset=utf-8',
      'content-disposition': `attachment; filename="${name}.md"`,
      'cache-control': 'no-store',
    },
  })
}
