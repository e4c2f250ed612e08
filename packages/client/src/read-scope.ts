import { ShiplogError } from './errors.ts'

// A command's follow-up reads (a receipt, the previous deployment, a list) need the `read` scope,
// which a key made for one write may lack: what it was made for is done, and the command says
// which option needed more.

/** The API refused a request for a scope the key lacks. */
export const lacksScope = (error: unknown): boolean =>
  error instanceof ShiplogError && error.status === 403

/** Where a person gets a key that can also read. */
export const KEY_WITH_READ =
  'use a key with the read scope as well (bun run keys create --scope deployments:write --scope read)'
