import { type Static, Type } from '@sinclair/typebox'
import type { DoraFigures } from './dora.ts'

// DORA's performance tiers, as one table an operator may replace (a JSON file of this schema):
// each key's published ranges, or its typical values where the report gives no range, or null
// where it publishes none. A figure's tier is read from the table, never guessed past it.

export const DoraTier = Type.Union(
  [Type.Literal('elite'), Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')],
  { description: 'A performance tier, best first' },
)
export type DoraTier = Static<typeof DoraTier>

const Bound = Type.Number({ minimum: 0 })

/** A tier's published range; bounds are inclusive (`from`, `upTo`) or exclusive (`above`, `below`). */
export const TierRange = Type.Object(
  {
    tier: DoraTier,
    label: Type.String({ minLength: 1, description: 'The range as the report words it' }),
    from: Type.Optional(Bound),
    above: Type.Optional(Bound),
    upTo: Type.Optional(Bound),
    below: Type.Optional(Bound),
  },
  { additionalProperties: false },
)
export type TierRange = Static<typeof TierRange>

/** A tier's typical value, where the report gives one instead of a range. */
export const TierTypical = Type.Object(
  {
    tier: DoraTier,
    label: Type.String({ minLength: 1 }),
    typical: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
)
export type TierTypical = Static<typeof TierTypical>

const KeyTiers = Type.Union([
  Type.Object({ ranges: Type.Array(TierRange, { minItems: 1 }) }, { additionalProperties: false }),
  Type.Object(
    { typical: Type.Array(TierTypical, { minItems: 1 }) },
    { additionalProperties: false },
  ),
  Type.Null({ description: 'The report publishes no tier for this key' }),
])

/**
 * A report's tiers for the five keys, in the units of `DoraFigures`: deployments per day, seconds
 * (median lead time, median recovery time) and ratios from 0 to 1.
 */
export const DoraLevels = Type.Object(
  {
    report: Type.String({ minLength: 1, description: 'The report the tiers come from' }),
    year: Type.Integer({ minimum: 2014 }),
    deploymentFrequency: KeyTiers,
    changeLeadTime: KeyTiers,
    changeFailRate: KeyTiers,
    failedDeploymentRecoveryTime: KeyTiers,
    deploymentReworkRate: KeyTiers,
  },
  { additionalProperties: false },
)
export type DoraLevels = Static<typeof DoraLevels>

/** The five keys, by their names in `DoraFigures`. */
export type DoraKey = keyof DoraLevels & keyof Static<typeof DoraFigures>

const HOUR = 3_600
const DAY = 24 * HOUR
const WEEK = 7 * DAY
const MONTH = 30 * DAY
const SIX_MONTHS = 182.5 * DAY

/**
 * The 2024 Accelerate State of DevOps Report's software delivery performance table, as
 * published, oddities included: its medium tier has a lower change fail rate (10 %) than its high
 * tier (20 %), high and medium share a recovery time (less than one day), and nothing covers a
 * recovery between one day and one week. It gives no tier for deployment rework rate.
 */
export const DORA_2024_LEVELS: DoraLevels = {
  report: 'Accelerate State of DevOps Report 2024 (DORA)',
  year: 2024,
  deploymentFrequency: {
    ranges: [
      { tier: 'elite', label: 'On demand (multiple deploys per day)', above: 1 },
      { tier: 'high', label: 'Between once per day and once per week', from: 1 / 7, upTo: 1 },
      {
        tier: 'medium',
        label: 'Between once per week and once per month',
        from: 1 / 30,
        below: 1 / 7,
      },
      {
        tier: 'low',
        label: 'Between once per month and once every six months',
        from: DAY / SIX_MONTHS,
        below: 1 / 30,
      },
    ],
  },
  changeLeadTime: {
    ranges: [
      { tier: 'elite', label: 'Less than one day', below: DAY },
      { tier: 'high', label: 'Between one day and one week', from: DAY, upTo: WEEK },
      { tier: 'medium', label: 'Between one week and one month', above: WEEK, upTo: MONTH },
      { tier: 'low', label: 'Between one month and six months', above: MONTH, upTo: SIX_MONTHS },
    ],
  },
  changeFailRate: {
    typical: [
      { tier: 'elite', label: '5%', typical: 0.05 },
      { tier: 'high', label: '20%', typical: 0.2 },
      { tier: 'medium', label: '10%', typical: 0.1 },
      { tier: 'low', label: '40%', typical: 0.4 },
    ],
  },
  failedDeploymentRecoveryTime: {
    ranges: [
      { tier: 'elite', label: 'Less than one hour', below: HOUR },
      { tier: 'high', label: 'Less than one day', from: HOUR, below: DAY },
      { tier: 'medium', label: 'Less than one day', from: HOUR, below: DAY },
      { tier: 'low', label: 'Between one week and one month', from: WEEK, upTo: MONTH },
    ],
  },
  deploymentReworkRate: null,
}

/**
 * The 2025 report's view, which replaced tiers: throughput (how fast changes flow) and
 * instability (how often they go wrong), each a group of keys read together.
 */
export const DORA_2025_FACTORS: Readonly<Record<'throughput' | 'instability', DoraKey[]>> = {
  throughput: ['changeLeadTime', 'deploymentFrequency', 'failedDeploymentRecoveryTime'],
  instability: ['changeFailRate', 'deploymentReworkRate'],
}

/** A figure's tier in a table, with what a reader must know to trust it. */
export interface DoraLevel {
  /** Null when the table has no tier for the key, or the figure falls outside every range. */
  tier: DoraTier | null
  /** The report and year the tier comes from. */
  report: string
  year: number
  /** The report's wording of the tier's range or typical value. */
  label?: string
  /** Why there is no tier, or what is odd about the one given. */
  notes: string[]
}

const contains = (range: TierRange, value: number) =>
  (range.from === undefined || value >= range.from) &&
  (range.above === undefined || value > range.above) &&
  (range.upTo === undefined || value <= range.upTo) &&
  (range.below === undefined || value < range.below)

const TIER_ORDER: DoraTier[] = ['elite', 'high', 'medium', 'low']

/** Where a worse tier's typical value is better than a better tier's (lower, for a rate). */
function inversions(typical: TierTypical[]): string[] {
  const ordered = [...typical].sort(
    (a, b) => TIER_ORDER.indexOf(a.tier) - TIER_ORDER.indexOf(b.tier),
  )
  const notes: string[] = []
  for (let i = 1; i < ordered.length; i++) {
    const better = ordered[i - 1] as TierTypical
    const worse = ordered[i] as TierTypical
    if (worse.typical < better.typical)
      notes.push(
        `the table's ${worse.tier} tier (${worse.label}) is lower than its ${better.tier} tier (${better.label})`,
      )
  }
  return notes
}

/**
 * The tier of one figure (`value` in the units of `DoraFigures`; null without data) in `table`.
 * Ranges give the first tier whose range holds the value, and say so when another holds it too;
 * typical values give the nearest one (the better tier on a tie), and say it is nearest.
 */
export function doraLevel(table: DoraLevels, key: DoraKey, value: number | null): DoraLevel {
  const base = { report: table.report, year: table.year }
  const tiers = table[key]
  if (tiers === null) {
    return { ...base, tier: null, notes: [`${table.report} publishes no tier for this key`] }
  }
  if (value === null) return { ...base, tier: null, notes: ['no data in this window'] }
  if ('ranges' in tiers) {
    const holding = tiers.ranges.filter((range) => contains(range, value))
    const [first] = holding
    if (!first) {
      return { ...base, tier: null, notes: [`outside every range of the ${table.year} table`] }
    }
    const shared = holding.slice(1).map((range) => range.tier)
    return {
      ...base,
      tier: first.tier,
      label: first.label,
      notes: shared.length
        ? [`the table gives ${[first.tier, ...shared].join(' and ')} the same range`]
        : [],
    }
  }
  const distance = (entry: TierTypical) => Math.abs(entry.typical - value)
  // Within a billionth counts as a tie: 0.15 is as near 0.1 as 0.2, whatever binary floats say.
  const nearer = (a: TierTypical, b: TierTypical) =>
    distance(a) < distance(b) - 1e-9 ||
    (Math.abs(distance(a) - distance(b)) <= 1e-9 &&
      TIER_ORDER.indexOf(a.tier) < TIER_ORDER.indexOf(b.tier))
  const nearest = tiers.typical.reduce((best, candidate) =>
    nearer(candidate, best) ? candidate : best,
  )
  return {
    ...base,
    tier: nearest.tier,
    label: nearest.label,
    notes: [
      `the ${table.year} table gives typical values, not ranges: the nearest is shown`,
      ...inversions(tiers.typical),
    ],
  }
}
