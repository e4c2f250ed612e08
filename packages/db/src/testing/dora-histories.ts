import fc from 'fast-check'
import { DAY_MICROS } from '../dora/time-units.ts'
import type { History } from './dora-oracle.ts'
import { microsOf } from './recorded-jobs.ts'

// Random histories of one application in production, for the DORA property tests: deployments
// with commit lists, reverts, reverts of reverts, redeploys, rollbacks, voids, commits unknown,
// incidents resolved or open, some after the window.

// Monday 2026-03-02: the window is five weeks from there; deployments start 3 days before it
// and end a week after it, so signals and recoveries fall on both sides of `until`.
export const T0 = microsOf('2026-03-02T00:00:00Z')
export const HOUR = 3_600_000_000n
export const WEEK = 7n * DAY_MICROS
export const WINDOW = { since: T0, until: T0 + 5n * WEEK }

const sha = (n: number) => n.toString(16).padStart(2, '0').repeat(20)
const uuid = (prefix: number, n: number) =>
  `0000000${prefix}-0000-7000-8000-${n.toString(16).padStart(12, '0')}`

/** A random history (dora-oracle.ts) around WINDOW. */
export const historyArbitrary = fc
  .record({
    commitCount: fc.integer({ min: 2, max: 9 }),
    reverts: fc.array(fc.option(fc.nat(), { nil: undefined }), { minLength: 9, maxLength: 9 }),
    deployments: fc.array(
      fc.record({
        hours: fc.integer({ min: 0, max: 45 * 24 }),
        commit: fc.nat(),
        // A sender that names no commit (a Helm chart version): about one in five.
        commitKnown: fc.nat({ max: 4 }).map((n) => n !== 0),
        list: fc.option(fc.array(fc.nat(), { maxLength: 5 }), { nil: null, freq: 4 }),
        voided: fc.nat({ max: 9 }).map((n) => n === 0),
      }),
      { minLength: 2, maxLength: 9 },
    ),
    incidents: fc.array(
      fc.record({
        cause: fc.nat(),
        resolvedHours: fc.option(fc.integer({ min: 1, max: 20 * 24 }), { nil: null, freq: 2 }),
        fixedBy: fc.option(fc.nat(), { nil: null }),
      }),
      { maxLength: 4 },
    ),
  })
  .map(({ commitCount, reverts, deployments, incidents }): History => {
    // Commits every 10 hours from 5 days before the window; one may revert an earlier one.
    const commits = Array.from({ length: commitCount }, (_, i) => {
      const target = reverts[i]
      return {
        sha: sha(i + 1),
        committedAt: T0 - 5n * DAY_MICROS + BigInt(i * 10) * HOUR,
        reverts: i > 0 && target !== undefined && target % 3 === 0 ? [sha((target % i) + 1)] : [],
      }
    })
    const hours = [...new Set(deployments.map((d) => d.hours))].sort((a, b) => a - b)
    const placed = deployments.slice(0, hours.length).map((d, i) => {
      const commit = d.commit % commitCount
      return {
        id: uuid(1, i + 1),
        at: T0 - 3n * DAY_MICROS + BigInt(hours[i] ?? 0) * HOUR,
        commit: d.commitKnown ? sha(commit + 1) : null,
        // A version per commit, so a deployment whose commit is unknown can match a known one.
        version: `r${commit + 1}`,
        // What it delivered: commits up to its own (as git log lists ancestors), any of them.
        list: d.list && [...new Set(d.list.map((n) => sha((n % (commit + 1)) + 1)))],
        voided: d.voided,
      }
    })
    return {
      commits,
      deployments: placed,
      incidents: incidents.map((incident, i) => {
        const cause = placed[incident.cause % placed.length] as (typeof placed)[number]
        const fixer =
          incident.fixedBy === null ? undefined : placed[incident.fixedBy % placed.length]
        const fixedBy = fixer && fixer.at > cause.at ? fixer : undefined
        const resolvedAt = fixedBy
          ? fixedBy.at
          : incident.resolvedHours === null
            ? null
            : cause.at + BigInt(incident.resolvedHours) * HOUR
        return {
          id: uuid(2, i + 1),
          cause: cause.id,
          startedAt: cause.at,
          resolvedAt,
          fixedBy: fixedBy?.id ?? null,
        }
      }),
    }
  })
