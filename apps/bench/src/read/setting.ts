import { spawnSync } from 'node:child_process'
import { cpus, release, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { Sql } from '@shiplog/db/client'

/** Where a run measured: the machine, the runtime, Postgres and its settings, and the code. */
export interface Setting {
  machine: string
  runtime: string
  postgres: string
  code: string
}

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

const git = (...args: string[]) =>
  spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() ?? ''

// What the API process runs: its own source and the two packages it reads through.
const MEASURED = ['apps/api', 'packages/db', 'packages/schema']

/** Others edit the tree while a run goes on, so the report names the commit and what differed. */
function codeVersion(): string {
  const commit = git('rev-parse', '--short', 'HEAD')
  if (!commit) return 'unknown (no git)'
  const changed = MEASURED.filter((path) => git('status', '--porcelain', '--', path) !== '')
  return changed.length
    ? `commit ${commit} with uncommitted changes in ${changed.join(', ')}`
    : `commit ${commit}`
}

/** Describes this run's setting; `embedded` says whether Postgres is the zero-config one. */
export async function describeSetting(sql: Sql, embedded: boolean, host: string): Promise<Setting> {
  const [settings] = await sql<Record<string, string>[]>`
    select current_setting('server_version') as version,
           current_setting('shared_buffers') as shared_buffers,
           current_setting('work_mem') as work_mem, current_setting('jit') as jit`
  const where = embedded ? 'embedded' : `at DATABASE_URL (${host})`
  return {
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Linux ${release()}`,
    runtime: `Bun ${process.versions.bun}`,
    postgres: `PostgreSQL ${settings?.version?.split(' ')[0]} ${where}; shared_buffers ${settings?.shared_buffers}, work_mem ${settings?.work_mem}, jit ${settings?.jit}`,
    code: codeVersion(),
  }
}
