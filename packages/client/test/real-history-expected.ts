import { doraFigures } from './replay-harness.ts'

// What GET /v1/metrics/dora must answer for the history of real-history.ts, whatever order its
// deployments arrive in, worked out by hand from the rules of the README ("How Shiplog computes
// DORA"): a deployment is failed by any signal known now (a rollback, a revert where the
// reverting commit is first delivered, an incident), whenever it arrived, and recovers at the
// earliest recovery known now, after the window's end too; a revert of a revert re-applies (no
// failure, no rework); a release that ships a commit and its revert fails nothing.
//
// Lead times (deployedAt − committer time) of the commits first delivered by a deployment that is
// not initial (a1, by the initial D1, counts in none):
//   D2: b1 25 h = 90,000; b2 24 h = 86,400; m1 3 h = 10,800; s2 2 h = 7,200
//   D3: c3 6 h = 21,600        D4: r4 3 h = 10,800        D5: c5 1 h = 3,600
//   D6: r6 3 h = 10,800        D7: rr7 8 h = 28,800       D8: c8 3 h = 10,800, r8 2 h = 7,200
//   D9: c9 2 h = 7,200         D11: c11 3 h = 10,800 (c9 again: not first)
//   D12: r12 3 h = 10,800      D14: c14 4 h = 14,400 (r12 again: not first)
// Failed, and recovered at the earliest recovery:
//   D2 by r4 (D4): 05-19 12:00 → 05-21 12:00 = 172,800
//   D5 by r6 (D6): 05-25 12:00 → 05-26 12:00 = 86,400
//   D9 by the rollback D10: 05-31 22:00 → 06-01 01:00 = 10,800 (after May's end: May counts it)
//   D11 by r12 (D12): 06-02 12:00 → 06-03 12:00 = 86,400
//   D12 by the rollback D13: 06-03 12:00 → 06-03 14:00 = 7,200
//   Not D6 (rr7 re-applies), not D8 (r8 is in its own release), not D11 again for r12 in D14.
// Rework: D4 (r4 reverts failed D2's s2), D6 (D5's c5), D10 (rollback), D12 (D11's c11), D13
// (rollback); not D7 (a re-apply), not D14 (r12 is not first delivered there).
// Percentiles interpolate between ranks (0.5 and 0.9 × (n − 1)).

/** Week of 05-18 (7 days): D1–D4. */
const week1 = doraFigures({
  deployments: 4,
  days: 7,
  // 7,200 10,800 10,800 21,600 86,400 90,000: median (10,800 + 21,600) / 2; p90 at rank 4.5:
  // 86,400 + 0.5 × 3,600
  lead: [6, 16_200, 88_200],
  fail: [1, 4],
  recovery: [1, 172_800, 0],
  rework: 1,
})

/** Week of 05-25 (7 days): D5–D9. */
const week2 = doraFigures({
  deployments: 5,
  days: 7,
  // 3,600 7,200 7,200 10,800 10,800 28,800: median (7,200 + 10,800) / 2; p90 at rank 4.5:
  // 10,800 + 0.5 × 18,000
  lead: [6, 9_000, 19_800],
  fail: [2, 5],
  // 10,800 and 86,400
  recovery: [2, 48_600, 0],
  rework: 1,
})

/** Week of 06-01 (7 days): D10–D14; initial or forward: D11, D12, D14. */
const week3 = doraFigures({
  deployments: 5,
  days: 7,
  // 10,800 10,800 14,400: p90 at rank 1.8: 10,800 + 0.8 × 3,600
  lead: [3, 10_800, 13_680],
  fail: [2, 3],
  // 7,200 and 86,400
  recovery: [2, 46_800, 0],
  rework: 3,
})

/** The weeks asked alone and as the whole span's buckets. */
export const WEEKS = [
  { since: '2026-05-18T00:00:00.000Z', until: '2026-05-25T00:00:00.000Z', figures: week1 },
  { since: '2026-05-25T00:00:00.000Z', until: '2026-06-01T00:00:00.000Z', figures: week2 },
  { since: '2026-06-01T00:00:00.000Z', until: '2026-06-08T00:00:00.000Z', figures: week3 },
]

/** The months asked alone; the history's deployments lie in their last and first weeks. */
export const MONTHS = [
  {
    since: '2026-05-01T00:00:00.000Z',
    until: '2026-06-01T00:00:00.000Z',
    figures: doraFigures({
      deployments: 9,
      days: 31,
      // weeks 1 and 2: 3,600 7,200 7,200 7,200 10,800 10,800 10,800 10,800 21,600 28,800 86,400
      // 90,000: median (10,800 + 10,800) / 2; p90 at rank 9.9: 28,800 + 0.9 × 57,600
      lead: [12, 10_800, 80_640],
      fail: [3, 9],
      // 10,800 86,400 172,800
      recovery: [3, 86_400, 0],
      rework: 2,
    }),
  },
  {
    since: '2026-06-01T00:00:00.000Z',
    until: '2026-07-01T00:00:00.000Z',
    figures: doraFigures({
      deployments: 5,
      days: 30,
      lead: [3, 10_800, 13_680],
      fail: [2, 3],
      recovery: [2, 46_800, 0],
      rework: 3,
    }),
  },
]

/** The whole span, 05-18 to 06-08 (21 days), by week. */
export const SPAN = {
  since: '2026-05-18T00:00:00.000Z',
  until: '2026-06-08T00:00:00.000Z',
  figures: doraFigures({
    deployments: 14,
    days: 21,
    // 3,600 7,200×3 10,800×6 14,400 21,600 28,800 86,400 90,000: median at rank 7 is 10,800;
    // p90 at rank 12.6: 28,800 + 0.6 × 57,600
    lead: [15, 10_800, 63_360],
    // D2, D5, D9, D11, D12 of D1–D9, D11, D12, D14
    fail: [5, 12],
    // 7,200 10,800 86,400 86,400 172,800
    recovery: [5, 86_400, 0],
    rework: 5,
  }),
}

/** Every deployment's change type. */
export const CHANGE_TYPES = {
  D1: 'initial',
  D2: 'forward',
  D3: 'forward',
  D4: 'forward',
  D5: 'forward',
  D6: 'forward',
  D7: 'forward',
  D8: 'forward',
  D9: 'forward',
  D10: 'rollback',
  D11: 'forward',
  D12: 'forward',
  D13: 'rollback',
  D14: 'forward',
}

/** When each failed deployment recovered (its receipt's `changeFailure.recoveredAt`); null: not failed. */
export const RECOVERED_AT = {
  D1: null,
  D2: '2026-05-21T12:00:00.000Z',
  D3: null,
  D4: null,
  D5: '2026-05-26T12:00:00.000Z',
  D6: null,
  D7: null,
  D8: null,
  D9: '2026-06-01T01:00:00.000Z',
  D10: null,
  D11: '2026-06-03T12:00:00.000Z',
  D12: '2026-06-03T14:00:00.000Z',
  D13: null,
  D14: null,
}
