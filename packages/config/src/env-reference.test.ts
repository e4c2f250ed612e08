import { expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { envVariables } from './env-reference.ts'

test('lists each variable in order: its default, whether required, what it accepts', () => {
  const Env = Type.Object({
    DATABASE_URL: Type.String({ errorMessage: 'a postgres:// URL', description: 'Postgres URL' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'Port' }),
    VERBOSE: Type.Boolean({ default: false, description: 'Log more' }),
    HEADER: Type.Optional(Type.String({ description: 'A header' })),
  })
  expect(envVariables(Env)).toEqual([
    {
      name: 'DATABASE_URL',
      default: undefined,
      required: true,
      accepted: 'a postgres:// URL',
      description: 'Postgres URL',
    },
    {
      name: 'PORT',
      default: '3000',
      required: false,
      accepted: 'a whole number, at least 0, at most 65535',
      description: 'Port',
    },
    {
      name: 'VERBOSE',
      default: 'false',
      required: false,
      accepted: 'true or false',
      description: 'Log more',
    },
    {
      name: 'HEADER',
      default: undefined,
      required: false,
      accepted: 'any text',
      description: 'A header',
    },
  ])
})
