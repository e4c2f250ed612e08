import { expect, test } from 'bun:test'
import { inputVariable, notifyArgs } from './inputs.ts'

const inputs = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [inputVariable(name), value]))

const REQUIRED = {
  url: 'https://shiplog.example.com',
  'api-key': 'shiplog_key',
  app: 'checkout',
  environment: 'production',
  version: 'v1.2.3',
}
const REQUIRED_FLAGS = Object.keys(REQUIRED).length

test('inputs are named as the runner names them: upper case, dashes kept', () => {
  expect(inputVariable('monorepo-path')).toBe('INPUT_MONOREPO-PATH')
  expect(inputVariable('api-key')).toBe('INPUT_API-KEY')
})

test('every given input becomes its flag; empty ones are left out; wait is a switch', () => {
  const args = notifyArgs(
    inputs({ ...REQUIRED, 'monorepo-path': 'apps/checkout', description: ' ', wait: 'true' }),
  )
  expect(args).toEqual([
    '--url=https://shiplog.example.com',
    '--api-key=shiplog_key',
    '--app=checkout',
    '--environment=production',
    '--version=v1.2.3',
    '--monorepo-path=apps/checkout',
    '--wait',
  ])
  expect(notifyArgs(inputs({ ...REQUIRED, wait: 'FALSE' }))).not.toContain('--wait')
})

test('url and api-key may come from SHIPLOG_URL and SHIPLOG_API_KEY instead', () => {
  const { app, environment, version } = REQUIRED
  const env = { ...inputs({ app, environment, version }), SHIPLOG_URL: 'x', SHIPLOG_API_KEY: 'y' }
  expect(notifyArgs(env)).toEqual([
    '--app=checkout',
    '--environment=production',
    '--version=v1.2.3',
  ])
})

test('a value starting with a dash stays a value', () => {
  expect(notifyArgs(inputs({ ...REQUIRED, description: '--wait for it' }))).toContain(
    '--description=--wait for it',
  )
})

test('missing inputs are all named, as inputs', () => {
  expect(() => notifyArgs(inputs({ app: 'checkout' }))).toThrow(
    'missing inputs url, api-key, environment, version: set them under `with:`',
  )
  expect(() => notifyArgs(inputs({ ...REQUIRED, version: '' }))).toThrow(
    'missing input version: set it under `with:`',
  )
})

test('wait and require-commits take the YAML booleans only', () => {
  expect(() => notifyArgs(inputs({ ...REQUIRED, wait: 'yes' }))).toThrow(
    'input wait must be true or false, got "yes"',
  )
  expect(() => notifyArgs(inputs({ ...REQUIRED, 'require-commits': '1' }))).toThrow(
    'input require-commits must be true or false, got "1"',
  )
})

test('retry-for is passed as given; the command checks it, as it checks SHIPLOG_RETRY_FOR', () => {
  expect(notifyArgs(inputs({ ...REQUIRED, 'retry-for': '300' })).slice(REQUIRED_FLAGS)).toEqual([
    '--retry-for=300',
  ])
  expect(notifyArgs(inputs({ ...REQUIRED, 'retry-for': '' }))).toHaveLength(REQUIRED_FLAGS)
})

test('require-commits is a switch; idempotency-key is passed as given', () => {
  const args = notifyArgs(
    inputs({ ...REQUIRED, 'require-commits': 'True', 'idempotency-key': 'release-7' }),
  )
  expect(args.slice(REQUIRED_FLAGS)).toEqual(['--idempotency-key=release-7', '--require-commits'])
})
