// Random deliveries and windows for dora/deployment-frequency.test.ts, aligned at midnight or
// not, by day or by week.

import { EARLIEST_MICROS, LATEST_MICROS, nameKey } from '@shiplog/schema'
import fc from 'fast-check'
import type { BucketUnit } from '../dora/time-units.ts'
import { type Content, contentOf, ENVIRONMENTS, microsOf } from './recorded-jobs.ts'

/** A day and a week in microseconds, as the scenarios draw them. */
export const DAY = 86_400_000_000n
export const WEEK = 7n * DAY

const VERSIONS = ['1.0.0', '2.0.0']
const COMMITS = ['a94a8fe5ccb19ba61c4c0873d391e987982fbbd3', 'abcdef1']

// Deployments and windows gather around the same anchors, so windows find deployments in them:
// a Monday, the epoch (windows around it cross into 1969), the first and the last weeks a client
// can send.
const ANCHORS = [
  microsOf('2026-05-04T00:00:00Z'),
  microsOf('1970-01-01T00:00:00Z'),
  EARLIEST_MICROS,
  microsOf('9999-11-20T00:00:00Z'),
]

const clamp = (micros: bigint) =>
  micros < EARLIEST_MICROS ? EARLIEST_MICROS : micros > LATEST_MICROS ? LATEST_MICROS : micros

// Midnights (Mondays among them), 1 µs either side of one, or anywhere, within ±spread days.
const offset = (spread: number) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: -spread, max: spread }).map((n) => BigInt(n) * DAY) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.integer({ min: -spread, max: spread }), fc.constantFrom(-1n, 1n))
        .map(([days, micro]) => BigInt(days) * DAY + micro),
    },
    { weight: 1, arbitrary: fc.bigInt({ min: -BigInt(spread) * DAY, max: BigInt(spread) * DAY }) },
  )
const near = (anchor: number, spread: number) =>
  offset(spread).map((shift) => clamp((ANCHORS[anchor] as bigint) + shift))

const contentAt = (anchor: number) => contentOf(VERSIONS, COMMITS, near(anchor, 21))

// A delivery is new, or repeats an earlier one (same id: a retry; or a new id: an alias).
const delivery = (anchor: number) =>
  fc.record({
    content: contentAt(anchor),
    repeat: fc.option(fc.record({ ref: fc.nat(), sameId: fc.boolean() }), { freq: 4 }),
    rank: fc.nat({ max: 0xffff_ffff }),
  })

// A window starts near the anchor, or before one of the deployments (of its workspace and
// environment, spelled any way), so that most windows find some.
const window = (anchor: number) =>
  fc.record({
    unit: fc.constantFrom<BucketUnit>('day', 'week'),
    workspace: fc.constantFrom(0 as const, 1 as const),
    // 'qa' has no deployments anywhere.
    environment: fc.constantFrom(...ENVIRONMENTS, 'qa'),
    since: near(anchor, 30),
    target: fc.option(
      fc.record({
        ref: fc.nat(),
        back: offset(30).map((shift) => (shift < 0n ? -shift : shift)),
        spelling: fc.nat({ max: 1 }),
      }),
      { freq: 3 },
    ),
    whole: fc.boolean(),
    days: fc.integer({ min: 1, max: 60 }),
    weeks: fc.integer({ min: 1, max: 20 }),
    // Any length up to 20 weeks; a day window takes it modulo 60 days.
    micros: fc.bigInt({ min: 1n, max: 20n * WEEK }),
  })
type WindowDraw = ReturnType<typeof window> extends fc.Arbitrary<infer T> ? T : never

/** The window a draw names, given the deployments delivered; none if it would be empty. */
export function resolveWindow(draw: WindowDraw, delivered: Content[]) {
  const aim = draw.target
  const target = aim ? delivered[aim.ref % delivered.length] : undefined
  const since = target && aim ? clamp(target.at - aim.back) : draw.since
  const span = draw.whole
    ? draw.unit === 'day'
      ? BigInt(draw.days) * DAY
      : BigInt(draw.weeks) * WEEK
    : draw.unit === 'day'
      ? ((draw.micros - 1n) % (60n * DAY)) + 1n
      : draw.micros
  const until = clamp(since + span)
  if (since >= until) return undefined
  if (!target || !aim)
    return {
      unit: draw.unit,
      workspace: draw.workspace,
      environment: draw.environment,
      since,
      until,
    }
  const spellings = ENVIRONMENTS.filter((name) => nameKey(name) === nameKey(target.environment))
  return {
    unit: draw.unit,
    workspace: target.workspace,
    environment: spellings[aim.spelling] ?? target.environment,
    since,
    until,
  }
}

/** Batches of deliveries, a few strays, and the windows to ask about. */
export const scenario = fc.integer({ min: 0, max: ANCHORS.length - 1 }).chain((anchor) =>
  fc.record({
    // Mostly around one anchor, a few deployments around another.
    batches: fc.array(fc.array(delivery(anchor), { minLength: 1, maxLength: 12 }), {
      minLength: 1,
      maxLength: 3,
    }),
    strays: fc.array(delivery((anchor + 1) % ANCHORS.length), { maxLength: 3 }),
    windows: fc.array(window(anchor), { minLength: 1, maxLength: 8 }),
  }),
)
