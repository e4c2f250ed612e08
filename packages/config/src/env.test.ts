import { expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { parseEnv } from './env.ts'

const Env = Type.Object({
  DATABASE_URL: Type.String({ pattern: '^postgres://', description: 'Postgres URL' }),
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 3000 }),
  VERBOSE: Type.Boolean({ default: false }),
  BURST: Type.Optional(Type.Integer({ minimum: 1 })),
})

test('fills defaults and converts numbers and booleans', () => {
  expect(parseEnv(Env, { DATABASE_URL: 'postgres://x', VERBOSE: 'true' })).toEqual({
    DATABASE_URL: 'postgres://x',
    PORT: 3000,
    VERBOSE: true,
  })
  expect(parseEnv(Env, { DATABASE_URL: 'postgres://x', PORT: '8080', BURST: '5' })).toMatchObject({
    PORT: 8080,
    BURST: 5,
  })
})

test('names every bad variable and what it should be, in one error', () => {
  expect(() => parseEnv(Env, { PORT: 'eighty', VERBOSE: 'maybe', BURST: '0' })).toThrow(
    /DATABASE_URL is required: Postgres URL[\s\S]*PORT must be a number \(got "eighty"\)[\s\S]*VERBOSE must be true or false[\s\S]*BURST must be a whole number, at least 1 \(got "0"\)/,
  )
})

test('an out-of-range number is refused with its bounds', () => {
  expect(() => parseEnv(Env, { DATABASE_URL: 'postgres://x', PORT: '70000' })).toThrow(
    'PORT must be a whole number, at least 1, at most 65535 (got "70000")',
  )
})

test('a string past its length is refused with the length', () => {
  const Named = Type.Object({ NAME: Type.String({ minLength: 1, maxLength: 5 }) })
  expect(() => parseEnv(Named, { NAME: 'shiplog' })).toThrow(
    'NAME must be at most 5 characters (got "shiplog")',
  )
})
