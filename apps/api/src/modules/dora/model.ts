import { DateTimeParameter } from '@shiplog/schema'
import { Type } from '@sinclair/typebox'

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
