import type { Sql } from '@shiplog/db/client'
import {
  type OverviewFacts,
  type OverviewMarks,
  overviewFacts,
} from '@shiplog/db/queries/dashboard'
import { deploymentMatrix } from '@shiplog/db/queries/deployment-matrix'
import { ByRepositoryQuery, type DeploymentMatrix, nameKey } from '@shiplog/schema'
import { waitingBetween } from '../../compare/service.ts'
import { baseUrlOf, pageQuery, parametersOf } from '../page-input.ts'
import type { PageRequest } from '../signed-in.ts'
import type { OverviewModel } from '../views/overview.ts'
import type { CellMark, OverviewColumn, OverviewRow, Waiting } from '../views/overview-rows.ts'

/**
 * How many rows (the most recently deployed) get their waiting commits counted, and how far
 * each count reads: each is a comparison of its own, so the page stays near its old cost on a
 * workspace of thousands of applications. A count that reached a bound says "at least"; the
 * rows below link to their comparison.
 */
export const COUNTED_ROWS = 10
export const OVERVIEW_COMPARE_LIMITS = { walk: 10, commits: 50 }

type MatrixRow = DeploymentMatrix['rows'][number]

/** The overview's input: a repository to show alone, and the address it was reached at. */
export interface OverviewInput {
  repository?: string
  baseUrl: string
}

/** The overview's input, checked as `GET /v1/state` checks it: a NUL or an overlong name is a 422. */
export function overviewInput(page: PageRequest): OverviewInput {
  const { repository } = parametersOf(ByRepositoryQuery, pageQuery(page.url))
  return { ...(repository === undefined ? {} : { repository }), baseUrl: baseUrlOf(page.request) }
}

/**
 * The pair a row's waiting count compares: the first production environment, and the last
 * environment before it where the application runs. Undefined when there is no such pair.
 */
export function promotionPair(
  columns: readonly { production: boolean }[],
  cells: readonly unknown[],
): { from: number; to: number } | undefined {
  const to = columns.findIndex((column) => column.production)
  if (to <= 0) return undefined
  for (let from = to - 1; from >= 0; from--) {
    if (cells[from] && !columns[from]?.production) return { from, to }
  }
  return undefined
}

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

/**
 * What waits for production in a row: its pair of environments and, for a counted row, how many
 * commits (none when both run one commit; not counted when the catalog lacks one of them).
 */
async function waitingOf(
  sql: Sql,
  row: OverviewRow,
  counted: boolean,
  columns: OverviewColumn[],
  ids: OverviewFacts['ids'],
): Promise<Waiting | undefined> {
  const pair = promotionPair(columns, row.cells)
  if (!pair) return undefined
  const [from, to] = [columns[pair.from]?.name ?? '', columns[pair.to]?.name ?? '']
  if (!counted) return { from, to }
  const [ahead, behind] = [row.cells[pair.from], row.cells[pair.to]]
  // A commit unknown (a sender that names none) leaves nothing to count from or to.
  if (ahead?.commitHash === null || behind?.commitHash === null) return { from, to }
  if (ahead && behind && ahead.commitHash === behind.commitHash) {
    return { from, to, commits: 0, complete: true }
  }
  const stream = {
    applicationId:
      ids.applications.get(`${nameKey(row.repositoryFullName)} ${nameKey(row.app)}`) ?? '',
    fromId: ids.environments.get(nameKey(from)) ?? '',
    toId: ids.environments.get(nameKey(to)) ?? '',
  }
  if (!stream.applicationId || !stream.fromId || !stream.toId) return { from, to }
  return { from, to, ...(await waitingBetween(sql, stream, OVERVIEW_COMPARE_LIMITS)) }
}

/** `GET /ui`: what runs where, in pipeline order, with marks and what waits for production. */
export function overviewModel(page: PageRequest, input: OverviewInput): Promise<OverviewModel> {
  const owner = page.principal
  const { repository } = input
  const repositoryKey = repository === undefined ? undefined : nameKey(repository)
  return page.snapshot(async ({ sql }) => {
    const [matrix, facts] = await Promise.all([
      deploymentMatrix(sql, owner.workspaceId, repositoryKey),
      overviewFacts(sql, owner.workspaceId, repositoryKey),
    ])
    const { marks } = facts
    const columns: OverviewColumn[] = matrix.environments.map((name) => ({
      name,
      production: facts.production.includes(name),
      openIncident: marks.openIncidents.some(
        (incident) => incident.appKey === null && incident.environment === name,
      ),
    }))
    const rows = [...matrix.rows]
      .sort((a, b) => latestOf(b).localeCompare(latestOf(a)))
      .map((row) => markedRow(row, columns, marks))
    // Each count is a few index walks, sent together.
    const waiting = await Promise.all(
      rows.map((row, index) => waitingOf(sql, row, index < COUNTED_ROWS, columns, facts.ids)),
    )
    return {
      columns,
      rows: rows.map((row, index) => {
        const each = waiting[index]
        return each ? { ...row, waiting: each } : row
      }),
      ...(repository === undefined ? {} : { repository }),
      repositories: facts.repositories,
      authors: facts.authors,
      now: new Date(),
      baseUrl: input.baseUrl,
      workspace: owner.workspaceSlug,
    }
  })
}
