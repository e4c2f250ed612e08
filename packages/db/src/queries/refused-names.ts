import { checkKeyName, checkName, isInvalid, printableName } from '@shiplog/schema'
import type { Sql } from '../client.ts'

/**
 * A name stored before the names rule (packages/schema/src/names.ts) that the rule refuses
 * today. Kept as stored: renaming an application or a key is its owner's decision.
 */
export interface RefusedName {
  table: 'applications' | 'environments' | 'repositories' | 'incidents' | 'api_keys'
  id: string
  /** As `printableName` writes it: an invisible code point shows as `<U+200B>`. */
  name: string
  /** What the rule says of it, naming the code point. */
  reason: string
}

/**
 * Every stored name the names rule refuses. Only a name with a character outside printable
 * ASCII can break the rule, so Postgres hands over those alone; key names, few, are all checked
 * (their rule also bounds their length).
 */
export async function findRefusedNames(sql: Sql): Promise<RefusedName[]> {
  const rows = await sql<Omit<RefusedName, 'reason'>[]>`
    select 'applications' as table, id::text, name from applications where name ~ '[^ -~]'
    union all
    select 'environments', id::text, name from environments where name ~ '[^ -~]'
    union all
    select 'repositories', id::text, full_name from repositories where full_name ~ '[^ -~]'
    union all
    select 'incidents', id::text, app from incidents where app ~ '[^ -~]'
    union all
    select 'api_keys', id::text, name from api_keys
    order by 1, 2`
  return rows.flatMap((row) => {
    const checked = row.table === 'api_keys' ? checkKeyName(row.name) : checkName(row.name)
    if (!isInvalid(checked)) return []
    return [{ ...row, name: printableName(row.name), reason: checked.error }]
  })
}
