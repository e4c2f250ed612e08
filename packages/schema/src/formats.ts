import { FormatRegistry } from '@sinclair/typebox'
import { parseDateTime } from './date-time.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

// TypeBox checks no formats until they are registered, and only some hosts (Elysia) register
// them; the schemas register what they use so they validate the same in every process.
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => UUID.test(value))
if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set('date-time', (value) => parseDateTime(value).ok)
}
