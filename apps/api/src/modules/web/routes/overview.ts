import { listEnvironments } from '@shiplog/db/queries/catalog'
import {
  authorsOf,
  catalogIds,
  type OverviewMarks,
  overviewMarks,
  repositoryNames,
} from '@shiplog/db/queries/dashboard'
import { ByRepositoryQuery, type DeploymentMatrix, nameKey } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { workspaceState } from '../../catalog/service.ts'
import { waitingBetween } from '../../compare/service.ts'
import type { WebDeps } from '../deps.ts'
import { baseUrlOf, pageQuery, parametersOf } from '../page-input.ts'
import { signedIn } from '../signed-in.ts'
import { overviewPage } from '../views/overview.ts'
import {
  type CellMark,
  type OverviewColumn,
  type OverviewRow,
  promotionPair,
} from '../views/overview-rows.ts'

/**
 * How many rows (the most recently deployed) get their waiting commits counted, and how far
 * each count reads: each is a comparison of its own, so the page stays near its old cost on a
 * workspace of thousands of applications. A count that reached a bound says "at least"; the
 * rows below link to their comparison.
 */
export const COUNTED_ROWS = 10
export const OVERVIEW_COMPARE_LIMITS = { walk: 10, commits: 50 }

type MatrixRow = DeploymentMatrix['rows'][number]

/** A row with the marks of its cells. */
function markedRow(row: MatrixRow, columns: OverviewColumn[], marks: OverviewMarks): OverviewRow {
  const appKey = nameKey(row.app)
  return {
    app: row.app,
    repositoryFullName: row.repositoryFullName,
    cells: row.cells.map((cell, index) => {
      if (!cell) return null
      const environment = columns[index]?.name ?? ''
      const found: [CellMark, boolean][] = [
        ['rolled back', marks.rolledBack.has(cell.id)],
        ['failed', marks.causes.has(cell.id)],
        [
          'open incident',
          marks.openIncidents.some(
            (incident) => incident.appKey === appKey && incident.environment === environment,
          ),
        ],
        ['voided', marks.afterVoid.has(cell.id)],
      ]
      return { ...cell, marks: found.filter(([, on]) => on).map(([mark]) => mark) }
    }),
  }
}

// Newest first: the applications deployed most recently anywhere lead.
const latestOf = (row: MatrixRow) =>
  row.cells.reduce(
    (latest, cell) => (cell && cell.deployedAt > latest ? cell.deployedAt : latest),
    '',
  )

/** `GET /ui`: what runs where, in pipeline order, with marks and what waits for production. */
export function overviewRoutes(deps: WebDeps) {
  return new Elysia().get(
    '/ui',
    signedIn(deps, async (page) => {
      // Checked as GET /v1/state checks it: a NUL or an overlong name is a 422, not a query.
      const { repository } = parametersOf(ByRepositoryQuery, pageQuery(page.url))
      const owner = page.principal
      const sql = deps.readSql
      const [matrix, repositories, environments, marks, ids] = await page.read(() =>
        Promise.all([
          workspaceState(sql, owner, repository === undefined ? {} : { repository }),
          repositoryNames(sql, owner.workspaceId),
          listEnvironments(sql, owner.workspaceId),
          overviewMarks(sql, owner.workspaceId),
          catalogIds(sql, owner.workspaceId),
        ]),
      )
      const columns: OverviewColumn[] = matrix.environments.map((name) => ({
        name,
        production: environments.some((e) => e.environment === name && e.production),
        openIncident: marks.openIncidents.some(
          (incident) => incident.appKey === null && incident.environment === name,
        ),
      }))
      const rows = [...matrix.rows]
        .sort((a, b) => latestOf(b).localeCompare(latestOf(a)))
        .map((row) => markedRow(row, columns, marks))
      // The counts run side by side, as the reads above do: each is a few index walks.
      await page.read(() =>
        Promise.all(
          rows.map(async (row, index) => {
            const pair = promotionPair(columns, row.cells)
            if (!pair) return
            const [from, to] = [columns[pair.from]?.name ?? '', columns[pair.to]?.name ?? '']
            row.waiting = { from, to }
            if (index >= COUNTED_ROWS) return
            const [ahead, behind] = [row.cells[pair.from], row.cells[pair.to]]
            if (ahead && behind && ahead.commitHash === behind.commitHash) {
              row.waiting = { from, to, commits: 0, complete: true }
              return
            }
            const stream = {
              applicationId:
                ids.applications.get(`${nameKey(row.repositoryFullName)} ${nameKey(row.app)}`) ??
                '',
              fromId: ids.environments.get(nameKey(from)) ?? '',
              toId: ids.environments.get(nameKey(to)) ?? '',
            }
            if (stream.applicationId && stream.fromId && stream.toId) {
              const counted = await waitingBetween(sql, stream, OVERVIEW_COMPARE_LIMITS)
              row.waiting = { from, to, ...counted }
            }
          }),
        ),
      )
      const cellIds = rows.flatMap((row) => row.cells.flatMap((cell) => (cell ? [cell.id] : [])))
      const authors = await page.read(() => authorsOf(sql, cellIds))
      return overviewPage({
        columns,
        rows,
        ...(repository === undefined ? {} : { repository }),
        repositories,
        authors,
        now: new Date(),
        baseUrl: baseUrlOf(page.request),
        workspace: owner.workspaceSlug,
      })
    }),
  )
}
