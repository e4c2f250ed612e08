import { expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { Type } from '@sinclair/typebox'
import { CONFIGURATION_DOC, configurationDoc, variablesTable } from './config-docs.ts'

test('docs/configuration.md is what the env schemas say (regenerate: bun run docs:config)', async () => {
  const committed = await readFile(CONFIGURATION_DOC, 'utf8')
  if (committed !== configurationDoc()) {
    throw new Error(
      'docs/configuration.md differs from the env schemas: run `bun run docs:config` and commit the result',
    )
  }
})

test('a variable without a description stops the generator, named', () => {
  const Env = Type.Object({
    PORT: Type.Integer({ default: 3000, description: 'Where to listen' }),
    HOST: Type.String({ default: '0.0.0.0' }),
    FLAG: Type.Boolean({ default: true, description: ' ' }),
  })
  expect(() => variablesTable(Env)).toThrow('no description in the env schema for HOST, FLAG')
})
