import { DateTimeParameter } from '@shiplog/schema'
import { Type } from '@sinclair/typebox'
import { NameParameter } from '../../lib/parameters.ts'

/** Query of `GET /v1/metrics/deployment-frequency`. */
export const FrequencyQuery = Type.Object(
  {
    environment: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'The environment (any case), e.g. production',
    }),
    bucket: Type.Optional(
      Type.Union([Type.Literal('day'), Type.Literal('week')], {
        default: 'day',
        description: 'UTC days, or ISO weeks starting on Monday',
      }),
    ),
    since: Type.Optional(
      DateTimeParameter(
        'Window start (default: 30 days, or 12 weeks, before until; never before 0001-01-01)',
      ),
    ),
    until: Type.Optional(DateTimeParameter('Window end, exclusive (default: now)')),
  },
  { additionalProperties: false },
)

/** Query of `GET /v1/metrics/dora`. */
export const DoraQuery = Type.Object(
  {
    environment: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'The environment (any case), e.g. production',
    }),
    app: NameParameter('Only this application (any case, in any repository)'),
    repository: NameParameter('Only the applications of this repository, owner/name (any case)'),
    since: Type.Optional(DateTimeParameter('Window start (default: 12 weeks before until)')),
    until: Type.Optional(DateTimeParameter('Window end, exclusive (default: now)')),
    bucket: Type.Optional(
      Type.Union([Type.Literal('week'), Type.Literal('day')], {
        default: 'week',
        description: 'The buckets of series: ISO weeks from Monday (default), or UTC days',
      }),
    ),
  },
  { additionalProperties: false },
)
