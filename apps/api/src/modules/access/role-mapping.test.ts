import { expect, test } from 'bun:test'
import { allows } from '@shiplog/schema'
import { accessOf, emailAllowed, parseRoleMapping, ROLE_SCOPES } from './role-mapping.ts'

test('rules are read from group, email and domain entries, separated by ; or new lines', () => {
  const rules = parseRoleMapping(
    'group:Shiplog Admins=acme:admin;\n group:/eng/sre=acme:operator\nemail:Ann@Acme.test=beta:viewer; domain:ACME.test=acme:viewer',
  )
  expect(rules).toEqual([
    { match: 'group', value: 'Shiplog Admins', workspace: 'acme', role: 'admin' },
    { match: 'group', value: '/eng/sre', workspace: 'acme', role: 'operator' },
    { match: 'email', value: 'ann@acme.test', workspace: 'beta', role: 'viewer' },
    { match: 'domain', value: 'acme.test', workspace: 'acme', role: 'viewer' },
  ])
})

test('a wrong entry is named: its shape, its workspace slug, its role', () => {
  expect(() => parseRoleMapping('')).toThrow('names no rule')
  expect(() => parseRoleMapping('admins=acme:admin')).toThrow('"admins=acme:admin" is not')
  expect(() => parseRoleMapping('group:a=Acme Corp:admin')).toThrow('not a workspace slug')
  expect(() => parseRoleMapping('group:a=acme:owner')).toThrow(
    'the role must be viewer, operator or admin',
  )
})

test('a person gets the highest role any rule gives them in each workspace', () => {
  const rules = parseRoleMapping(
    'domain:acme.test=acme:viewer; group:sre=acme:operator; group:sre=beta:viewer; email:ann@acme.test=acme:admin',
  )
  const access = (groups: string[], email: string | null) =>
    Object.fromEntries(accessOf(rules, [], { groups, email }))
  expect(access([], 'bob@acme.test')).toEqual({ acme: 'viewer' })
  expect(access(['sre'], 'bob@acme.test')).toEqual({ acme: 'operator', beta: 'viewer' })
  expect(access(['sre'], 'ANN@acme.test')).toEqual({ acme: 'admin', beta: 'viewer' })
  // No verified email (null): only group rules can match.
  expect(access(['sre'], null)).toEqual({ acme: 'operator', beta: 'viewer' })
  expect(access(['other'], 'eve@evil.test')).toEqual({})
})

test('allowed domains keep out everyone else, whatever their groups', () => {
  const rules = parseRoleMapping('group:sre=acme:admin')
  expect(emailAllowed({ groups: [], email: 'a@acme.test' }, ['acme.test'])).toBe(true)
  expect(emailAllowed({ groups: [], email: 'a@acme.test.evil' }, ['acme.test'])).toBe(false)
  expect(emailAllowed({ groups: [], email: null }, ['acme.test'])).toBe(false)
  expect(emailAllowed({ groups: [], email: null }, [])).toBe(true)
  expect(accessOf(rules, ['acme.test'], { groups: ['sre'], email: 'x@other.test' }).size).toBe(0)
  expect(
    accessOf(rules, ['acme.test'], { groups: ['sre'], email: 'x@acme.test' }).get('acme'),
  ).toBe('admin')
})

test('operators set environments’ place in the pipeline (issue 29); viewers do not', () => {
  expect(ROLE_SCOPES.operator).toContain('environments:write')
  expect(allows(ROLE_SCOPES.viewer, 'environments:write')).toBe(false)
  expect(allows(ROLE_SCOPES.admin, 'environments:write')).toBe(true)
})
