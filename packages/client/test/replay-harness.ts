import { expect } from 'bun:test'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'
import { inherited, notifyCheckout } from './git-repo.ts'
import { ROOT } from './live-api.ts'

/**
 * The `shiplog` CLI as a pipeline runs it in the checkout `repo`, against the API at `url` with
 * `key`: each run must exit 0 with nothing on stderr (no warning either).
 */
export function replayer(repo: string, url: string, key: string) {
  const shiplog = async (args: string[]) => {
    const run = await runProcess(['bun', join(ROOT, 'packages/client/src/cli.ts'), ...args], {
      cwd: repo,
      env: { ...inherited, NO_COLOR: '1', SHIPLOG_URL: url, SHIPLOG_API_KEY: key },
    })
    expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: '' })
    return run.stdout.trimEnd().split('\n')
  }
  /** `shiplog notify --wait` of checkout to production; resolves with the deployment's id. */
  const deploy = async (
    version: string,
    commit: string,
    deployedAt: string,
    more: string[] = [],
  ) => {
    const [accepted = ''] = await shiplog([...notifyCheckout(version, commit, deployedAt), ...more])
    return /^Deployment (\S+) accepted/.exec(accepted)?.[1] as string
  }
  return { shiplog, deploy }
}

/** The five keys as GET /v1/metrics/dora answers them, from figures worked out by hand. */
export const doraFigures = (figures: {
  deployments: number
  days: number
  /** commits, median, 90th percentile (seconds) */
  lead: [number, number | null, number | null]
  /** failed, of initial or forward deployments */
  fail: [number, number]
  /** recoveries, median (seconds), open */
  recovery: [number, number | null, number]
  rework: number
}) => ({
  deploymentFrequency: {
    deployments: figures.deployments,
    perDay: figures.deployments / figures.days,
  },
  changeLeadTime: {
    commits: figures.lead[0],
    medianSeconds: figures.lead[1],
    p90Seconds: figures.lead[2],
  },
  changeFailRate: {
    failed: figures.fail[0],
    deployments: figures.fail[1],
    ratio: figures.fail[1] === 0 ? null : figures.fail[0] / figures.fail[1],
  },
  failedDeploymentRecoveryTime: {
    recoveries: figures.recovery[0],
    medianSeconds: figures.recovery[1],
    open: figures.recovery[2],
  },
  deploymentReworkRate: {
    rework: figures.rework,
    deployments: figures.deployments,
    ratio: figures.deployments === 0 ? null : figures.rework / figures.deployments,
  },
})
