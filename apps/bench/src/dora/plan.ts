import type { Sql } from '@shiplog/db/client'
import { type Endpoint, page, untargeted } from '../read/endpoints.ts'
import { positiveInteger } from '../read/plan.ts'

/** What the DORA benchmark seeds and how often it asks. */
export interface DoraPlan {
  deployments: number
  commitsPerDeployment: number
  /** The seeded deployments spread over this many days, ending now. */
  days: number
  warmups: number
  samples: number
  quietWaitSeconds: number
  keepDatabase: boolean
}

/** The target for one year of one environment, median, on this machine. */
export const DORA_TARGET_MS = 300
/** The dashboard's overview and DORA pages, server time at 1M deployments (issue 14). */
export const PAGE_TARGET_MS = 150

const DAY_MS = 86_400_000

/**
 * The plan from BENCH_DORA_DEPLOYMENTS (default 1,000,000), BENCH_DORA_COMMITS (per deployment,
 * 5), BENCH_DORA_SAMPLES (31), BENCH_DORA_WARMUPS (10), BENCH_DORA_QUIET_WAIT (180 s) and
 * BENCH_DORA_KEEP=1 (leave the database in place); two years of deployments.
 */
export function doraPlanFrom(env: Record<string, string | undefined>): DoraPlan {
  const samples = positiveInteger('BENCH_DORA_SAMPLES', env.BENCH_DORA_SAMPLES ?? '31')
  if (samples < 7) throw new Error('BENCH_DORA_SAMPLES must be at least 7')
  return {
    deployments: positiveInteger('BENCH_DORA_DEPLOYMENTS', env.BENCH_DORA_DEPLOYMENTS ?? '1000000'),
    commitsPerDeployment: positiveInteger('BENCH_DORA_COMMITS', env.BENCH_DORA_COMMITS ?? '5'),
    days: 730,
    warmups: positiveInteger('BENCH_DORA_WARMUPS', env.BENCH_DORA_WARMUPS ?? '10'),
    samples,
    quietWaitSeconds: positiveInteger('BENCH_DORA_QUIET_WAIT', env.BENCH_DORA_QUIET_WAIT ?? '180'),
    keepDatabase: env.BENCH_DORA_KEEP === '1',
  }
}

/** The year the DORA request reads, and what it holds. */
export interface DoraWindow {
  environment: string
  since: string
  until: string
  deployments: number
  commits: number
}

/**
 * The requests timed side by side: the DORA keys of production over the last year (ending at
 * 13:37:12.345 UTC, so its buckets are partial at both ends); the first page of the deployment
 * list, the cheapest read there is, as the baseline; and the reads that show a deployment's
 * change type and failure (a page of one environment, a failed deployment's receipt).
 */
export async function doraEndpoints(
  sql: Sql,
  workspaceId: string,
): Promise<{ list: Endpoint[]; window: DoraWindow }> {
  const now = Date.now()
  const afternoon = Math.floor(now / DAY_MS) * DAY_MS + (13 * 3600 + 37 * 60 + 12.345) * 1000
  const until = new Date(afternoon <= now ? afternoon : afternoon - DAY_MS).toISOString()
  const since = new Date(Date.parse(until) - 365 * DAY_MS).toISOString()
  const environment = 'production'
  const [held] = await sql<{ deployments: number; commits: number }[]>`
    select count(*)::int as deployments, coalesce(sum(c.commits), 0)::int as commits
      from deployments d
      join environments e on e.id = d.environment_id
      left join lateral (select count(*) as commits from deployment_commits c
                          where c.deployment_id = d.id) c on true
     where d.workspace_id = ${workspaceId} and e.name_key = ${environment}
       and d.deployed_at >= ${since}::timestamptz and d.deployed_at < ${until}::timestamptz`
  const query = new URLSearchParams({ environment, since, until, bucket: 'week' })
  // A deployment that failed (a later commit reverts one it delivered): its receipt names why.
  const [failed] = await sql<{ id: string }[]>`
    select delivered.deployment_id::text as id
      from deployment_commits reverting
      join deployment_commits delivered on delivered.sha = reverting.reverts[1]
      join deployments d on d.id = delivered.deployment_id
      join environments e on e.id = d.environment_id
     where cardinality(reverting.reverts) > 0 and e.name_key = ${environment}
       and d.deployed_at >= ${since}::timestamptz and d.deployed_at < ${until}::timestamptz
     limit 1`
  if (!failed) throw new Error('the seeded window holds no failed deployment')
  return {
    window: {
      environment,
      since,
      until,
      deployments: held?.deployments ?? 0,
      commits: held?.commits ?? 0,
    },
    list: [
      {
        label: 'GET /v1/metrics/dora, one year of production',
        path: `/v1/metrics/dora?${query}`,
        targetMs: DORA_TARGET_MS,
        hasData: (body) =>
          ((body as { changeLeadTime?: { commits?: number } }).changeLeadTime?.commits ?? 0) > 0,
      },
      {
        label: 'GET /v1/metrics/dora, one year of every production environment together',
        path: `/v1/metrics/dora?${new URLSearchParams({ since, until, bucket: 'week' })}`,
        targetMs: DORA_TARGET_MS,
        hasData: (body) => ((body as { environments?: string[] }).environments?.length ?? 0) > 0,
      },
      // The lists behind the figures (issue 29): a page of each, over the same year.
      ...(
        [
          ['failed=true', { failed: 'true' }],
          ['failed=true&changeType=change', { failed: 'true', changeType: 'change' }],
          ['rework=true', { rework: 'true' }],
          ['failed=false', { failed: 'false' }],
        ] as const
      ).map(([name, filters]) =>
        untargeted(
          `GET /v1/deployments?environment=production&since&until&${name}&limit=50`,
          `/v1/deployments?${new URLSearchParams({ environment, since, until, ...filters, limit: '50' })}`,
        ),
      ),
      untargeted(
        'GET /v1/deployments?production=true&limit=50',
        '/v1/deployments?production=true&limit=50',
      ),
      untargeted(
        'GET /v1/commits?environment=production&since&until&limit=50',
        `/v1/commits?${new URLSearchParams({ environment, since, until, limit: '50' })}`,
      ),
      untargeted(
        'GET /v1/commits?production=true&since&until&limit=50',
        `/v1/commits?${new URLSearchParams({ production: 'true', since, until, limit: '50' })}`,
      ),
      untargeted('GET /v1/deployments?limit=50 (baseline)', '/v1/deployments?limit=50'),
      // With commits, a page and a receipt also carry each deployment's change type and failure.
      untargeted(
        'GET /v1/deployments?environment=production&limit=50',
        `/v1/deployments?${new URLSearchParams({ environment, limit: '50' })}`,
      ),
      untargeted(
        'GET /v1/deployments/{id}, a failed deployment',
        `/v1/deployments/${failed.id}`,
        (body) => (body as { changeFailure?: unknown }).changeFailure != null,
      ),
      // The dashboard's pages, signed in with the same key: server time to the last byte.
      page(
        'Page /ui (overview: every application × environment)',
        '/ui',
        '<tbody><tr>',
        PAGE_TARGET_MS,
      ),
      page(
        'Page /ui/dora (production, the last 12 weeks)',
        `/ui/dora?${new URLSearchParams({ environment })}`,
        'rect class="chart-bar"',
        PAGE_TARGET_MS,
      ),
      page(
        'Page /ui/dora (production, one year)',
        `/ui/dora?${new URLSearchParams({ environment, since, until })}`,
        'rect class="chart-bar"',
      ),
      page(
        'Page /ui/deployments?environment=production',
        `/ui/deployments?${new URLSearchParams({ environment })}`,
        '<tbody><tr>',
      ),
      page('Page /ui/incidents', '/ui/incidents', '<h1>Incidents</h1>'),
      page(
        'Page /ui/deployments/{id}, a failed deployment',
        `/ui/deployments/${failed.id}`,
        'Failed in production',
      ),
    ],
  }
}
