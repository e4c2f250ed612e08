import { type Static, Type } from '@sinclair/typebox'

/**
 * What a recorded deployment changed in its application and environment, from the deployments
 * before it by `deployedAt`: `initial` (none before), `redeploy` (the same commit as the one
 * before), `rollback` (the commit of an earlier deployment other than the one before), `forward`
 * (otherwise). Always from the deployments recorded now: a backfill changes its neighbours'.
 */
export const ChangeType = Type.Union(
  [
    Type.Literal('initial'),
    Type.Literal('redeploy'),
    Type.Literal('rollback'),
    Type.Literal('forward'),
  ],
  {
    $id: 'ChangeType',
    description:
      'initial: none before; redeploy: the same commit as the one before; rollback: the commit of an earlier one; forward: otherwise',
  },
)
export type ChangeType = Static<typeof ChangeType>
