import { type Static, Type } from '@sinclair/typebox'

export const FieldError = Type.Object(
  {
    field: Type.String({
      description: 'Name of the offending field, or "body" when the body itself is wrong',
      examples: ['commitHash'],
    }),
    message: Type.String({
      description: 'What is wrong and how to fix it',
      examples: ['must be 7 to 70 hexadecimal characters'],
    }),
  },
  { $id: 'FieldError', description: 'One validation error for one field' },
)
export type FieldError = Static<typeof FieldError>

export const Problem = Type.Object(
  {
    type: Type.String({
      description: 'URI reference identifying the problem type',
      examples: ['/problems/validation-failed'],
    }),
    title: Type.String({
      description: 'Short, human-readable summary of the problem type',
      examples: ['Validation failed'],
    }),
    status: Type.Integer({ description: 'HTTP status code', examples: [422] }),
    detail: Type.String({
      description: 'Human-readable explanation of this occurrence',
      examples: [
        'The request has 2 invalid fields: fix every one listed in errors and send it again.',
      ],
    }),
    errors: Type.Optional(
      Type.Array(FieldError, { description: 'Every failing field, at most one error each' }),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
)
export type Problem = Static<typeof Problem>
