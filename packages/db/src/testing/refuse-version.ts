import { randomBytes } from 'node:crypto'
import type { Sql } from '../client.ts'

/**
 * Makes the database refuse every deployment of `version` with `message`: a job that fails each
 * attempt, as tests of retries and dead letters need. Resolves with the undo.
 */
export async function refuseVersion(
  sql: Sql,
  version: string,
  message: string,
): Promise<() => Promise<void>> {
  const name = `refuse_${randomBytes(4).toString('hex')}`
  const [quoted] = await sql<{ version: string; message: string }[]>`
    select quote_literal(${version}::text) as version, quote_literal(${message}::text) as message`
  await sql.unsafe(`
    create function ${name}() returns trigger language plpgsql as $$
    begin
      if new.version = ${quoted?.version} then raise exception ${quoted?.message}; end if;
      return new;
    end $$`)
  await sql.unsafe(
    `create trigger ${name} before insert on deployments for each row execute function ${name}()`,
  )
  return async () => {
    await sql.unsafe(`drop trigger ${name} on deployments`)
    await sql.unsafe(`drop function ${name}()`)
  }
}
