import { listApiKeys } from '@shiplog/db/queries/api-keys'
import type { PageRequest } from '../signed-in.ts'
import type { KeysModel } from '../views/keys.ts'

/** What the keys page says beside them: a revocation done, or a key just created. */
export type KeysInput = Pick<KeysModel, 'created' | 'notice'>

/** The notice of a revocation, which redirects here. */
export const keysInput = (page: PageRequest): KeysInput =>
  page.url.searchParams.has('revoked')
    ? { notice: 'Key revoked: every replica refuses it within 5 seconds.' }
    : {}

/** `GET /ui/keys` (admins): the workspace's keys, from the primary, where they are made. */
export function keysModel(page: PageRequest, input: KeysInput): Promise<KeysModel> {
  return page.snapshot(
    async ({ sql }) => ({
      ...page.viewer,
      ...input,
      keys: await listApiKeys(sql, page.principal.workspaceSlug),
    }),
    'primary',
  )
}
