import { expect, test } from 'bun:test'
import { IntegrationMapping } from '@shiplog/schema/integration'
import { Value } from '@sinclair/typebox/value'
import { type Delivery, mappedValue, valueAt } from './mapping.ts'

const delivery: Delivery = {
  body: {
    deployment: { payload: { service: ' checkout ', replicas: 3, tags: ['a'] }, environment: '' },
    labels: { service: 'search' },
  },
  headers: new Headers({ 'X-Service': 'billing' }),
}

test('a dot path reads text and numbers from the body, and a header by its name', () => {
  expect(valueAt(delivery, 'deployment.payload.service')).toBe('checkout')
  expect(valueAt(delivery, 'deployment.payload.replicas')).toBe('3')
  expect(valueAt(delivery, 'labels.service')).toBe('search')
  expect(valueAt(delivery, 'headers.x-service')).toBe('billing')
})

test('a path to nothing, to an object, a list, a blank or the prototype gives nothing', () => {
  for (const path of [
    'deployment.missing',
    'deployment.payload',
    'deployment.payload.tags',
    'deployment.payload.tags.0',
    'deployment.environment',
    'deployment.constructor',
    '__proto__.toString',
    'headers.x-absent',
  ]) {
    expect({ path, value: valueAt(delivery, path) }).toEqual({ path, value: undefined })
  }
})

test('a field takes its fixed value, its path, or the first of a list that gives one', () => {
  expect(mappedValue('web', delivery)).toBe('web')
  expect(mappedValue({ from: 'labels.service' }, delivery)).toBe('search')
  expect(
    mappedValue(
      [{ from: 'deployment.payload.app' }, { from: 'headers.x-service' }, 'web'],
      delivery,
    ),
  ).toBe('billing')
  expect(mappedValue([{ from: 'deployment.payload.app' }], delivery)).toBeUndefined()
  expect(mappedValue(undefined, delivery)).toBeUndefined()
})

test('the mapping schema takes the four fields and refuses anything else', () => {
  expect(
    Value.Check(IntegrationMapping, {
      app: [{ from: 'deployment.payload.service' }, 'web'],
      environment: { from: 'headers.x-environment' },
    }),
  ).toBe(true)
  for (const refused of [
    { owner: 'x' },
    { app: '' },
    { app: { from: '' } },
    { app: { from: 'a..b' } },
    { app: { from: 'a', extra: 1 } },
    { app: [] },
    { app: 3 },
  ]) {
    expect({ refused, ok: Value.Check(IntegrationMapping, refused) }).toEqual({
      refused,
      ok: false,
    })
  }
})
