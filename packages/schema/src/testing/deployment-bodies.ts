// Shortcuts for the validator's tests (`validate-deployment*.test.ts`) around the shared body.
import { expect } from 'bun:test'
import type { FieldError } from '../problem.ts'
import { validateDeployment } from '../validate-deployment.ts'
import { validDeployment } from './deployment-body.ts'

/** The request time the tests validate at. */
export const NOW = new Date('2026-05-01T12:00:00Z')

/** The errors of a body that must be refused. */
export function errorsOf(body: unknown): FieldError[] {
  const result = validateDeployment(body, NOW)
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.value)}`)
  return result.errors
}

/** The error message for `field` when the valid body is given `field: value`, or undefined if accepted. */
export function messageFor(field: string, value: unknown): string | undefined {
  const result = validateDeployment(validDeployment({ [field]: value }), NOW)
  if (result.ok) return undefined
  expect(result.errors).toHaveLength(1)
  expect(result.errors[0]?.field).toBe(field)
  return result.errors[0]?.message
}

/** The normalized value of `field` when the valid body is given `field: value`; fails if rejected. */
export function normalized(field: string, value: unknown): unknown {
  const result = validateDeployment(validDeployment({ [field]: value }), NOW)
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.errors)}`)
  return (result.value as Record<string, unknown>)[field]
}
