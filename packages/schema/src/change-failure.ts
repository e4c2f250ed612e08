import { type Static, Type } from '@sinclair/typebox'

/** One reason a recorded deployment counts as failed in the DORA keys, and its recovery. */
export const ChangeFailureSignal = Type.Object(
  {
    kind: Type.Union([Type.Literal('rollback'), Type.Literal('revert'), Type.Literal('incident')], {
      description:
        'rollback: a later deployment rolled back to the one before it; revert: a later deployment reverts a commit it was the first to deliver; incident: an incident names it as its cause',
    }),
    deploymentId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'The rollback or the reverting deployment; null for an incident',
    }),
    incidentId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'The incident; null otherwise',
    }),
    revertedCommit: Type.Union([Type.String(), Type.Null()], {
      description: 'For a revert, the commit reverted; null otherwise',
    }),
    recoveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'When this recovered it: the deployedAt of the rollback or revert, the resolvedAt of the incident (null while open)',
    }),
  },
  { $id: 'ChangeFailureSignal' },
)
export type ChangeFailureSignal = Static<typeof ChangeFailureSignal>

/**
 * A recorded deployment that failed in production, as the DORA keys count it (once, whatever
 * the signals): why, and what recovered it (the first signal, when `recoveredAt` is set).
 */
export const ChangeFailure = Type.Object(
  {
    signals: Type.Array(ChangeFailureSignal, {
      description: 'Every signal, earliest recovery first (open incidents last)',
    }),
    recoveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'The earliest recovery; null while none has recovered it',
    }),
  },
  { $id: 'ChangeFailure' },
)
export type ChangeFailure = Static<typeof ChangeFailure>
