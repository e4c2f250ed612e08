// The audit trail's schemas, at `@shiplog/schema/audit` rather than in the index: the GitHub
// Action bundles the index, and has no use for them.
import { type Static, Type } from '@sinclair/typebox'
import { PageOf } from './page.ts'
import { DateTimeParameter, PageParameters } from './parameters.ts'

/** What the audit trail records: each change to the record, keys included. */
export const AUDIT_ACTIONS = [
  'deployment.voided',
  'incident.opened',
  'incident.changed',
  'key.created',
  'key.revoked',
  'integration.created',
  'integration.changed',
  'integration.secret_rotated',
  'integration.deleted',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

const AuditActionSchema = Type.Union(
  AUDIT_ACTIONS.map((action) => Type.Literal(action)),
  {
    description:
      'deployment.voided, incident.opened, incident.changed (resolved, reopened or corrected), key.created or key.revoked',
  },
)

/** Who made a change: a person signed in through single sign-on, an API key, or the server's CLI. */
export const AuditActor = Type.Object(
  {
    type: Type.Union([Type.Literal('person'), Type.Literal('key'), Type.Literal('cli')], {
      description:
        'person (signed in through the identity provider), key (an API key, or the dashboard signed in with one) or cli (`bun run keys` on the server)',
    }),
    name: Type.Union([Type.String(), Type.Null()], {
      description: "The person's name, or the key's name; null for cli",
    }),
    email: Type.Union([Type.String(), Type.Null()], {
      description: "The person's email, as the provider gave it; else null",
    }),
    keyPrefix: Type.Union([Type.String(), Type.Null()], {
      description: "The key's display prefix; else null",
    }),
  },
  { $id: 'AuditActor' },
)
export type AuditActor = Static<typeof AuditActor>

/** One change, as `GET /v1/audit` lists it. */
export const AuditEvent = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    at: Type.String({ format: 'date-time', description: 'When the change was committed' }),
    action: AuditActionSchema,
    targetId: Type.String({
      format: 'uuid',
      description: 'The deployment, incident or key changed',
    }),
    actor: AuditActor,
    details: Type.Record(
      Type.String(),
      Type.Union([Type.String(), Type.Null(), Type.Array(Type.String())]),
      {
        description:
          'What changed: a void’s reason; an incident’s title and environment, or the fields set; a key’s name, prefix and scopes',
      },
    ),
  },
  { $id: 'AuditEvent' },
)
export type AuditEvent = Static<typeof AuditEvent>

/** One page of the audit trail, newest first. */
export const AuditPage = PageOf(AuditEvent, 'AuditPage')
export type AuditPage = Static<typeof AuditPage>

/** Query of `GET /v1/audit`. */
export const ListAuditQuery = Type.Object(
  {
    action: Type.Optional(AuditActionSchema),
    targetId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'Only changes to this deployment, incident or key',
      }),
    ),
    actor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 320,
        description: 'Only changes by this person (their email, any case) or key (its prefix)',
      }),
    ),
    since: Type.Optional(DateTimeParameter('Changes at or after (RFC 3339)')),
    until: Type.Optional(DateTimeParameter('Changes before (RFC 3339)')),
    ...PageParameters,
  },
  { additionalProperties: false },
)
export type ListAuditQuery = Static<typeof ListAuditQuery>
