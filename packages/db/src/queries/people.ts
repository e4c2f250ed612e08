import type { Sql } from '../client.ts'

/** A person as their identity provider described them at their last sign-in. */
export interface Person {
  id: string
  email: string | null
  name: string | null
  groups: string[]
}

/** What a sign-in learns of a person: who (issuer and subject) and their claims. */
export interface PersonClaims {
  issuer: string
  subject: string
  email: string | null
  name: string | null
  groups: string[]
}

/** Stores a person on their first sign-in, refreshes their claims on the next; returns them. */
export async function upsertPerson(sql: Sql, claims: PersonClaims): Promise<Person> {
  const [row] = await sql<Person[]>`
    insert into people (issuer, subject, email, name, groups)
    values (${claims.issuer}, ${claims.subject}, ${claims.email}, ${claims.name}, ${claims.groups}::text[])
    on conflict (issuer, subject) do update
       set email = excluded.email, name = excluded.name, groups = excluded.groups,
           last_seen_at = now()
    returning id, email, name, groups`
  if (!row) throw new Error('the person was not stored')
  return row
}
