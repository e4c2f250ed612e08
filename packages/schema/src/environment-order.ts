import { nameKey } from './names.ts'

/**
 * Where an environment stands in the pipeline until someone sets it (`position`, lower first),
 * by the stage its name says: development, test, anything else, staging, production.
 */
export const RULE_POSITIONS = {
  development: 10,
  test: 20,
  other: 30,
  staging: 40,
  production: 50,
} as const

type Stage = keyof typeof RULE_POSITIONS

// A stage is named by one of these as a word of the name: `eu-production`, `prod_2`, `live`.
const PRODUCTION_WORDS = ['prod', 'production', 'prd', 'live']
const EARLIER_STAGES: [Stage, string[]][] = [
  ['staging', ['staging', 'stage', 'preprod']],
  ['test', ['test', 'qa']],
  ['development', ['dev', 'development']],
]

function stageOf(name: string): Stage {
  const words = nameKey(name).split(/[^\p{L}\p{N}]+/u)
  // `pre-prod` is staging and `non-prod` is not production: the word before takes it back.
  const before = (index: number) => words[index - 1] ?? ''
  const production = words.some(
    (word, index) => PRODUCTION_WORDS.includes(word) && !['pre', 'non'].includes(before(index)),
  )
  if (production) return 'production'
  if (words.some((word, index) => word === 'prod' && before(index) === 'pre')) return 'staging'
  for (const [stage, list] of EARLIER_STAGES) {
    if (words.some((word) => list.includes(word))) return stage
  }
  return 'other'
}

/** An environment's place by the rule alone: its position, and whether it is production. */
export function placeByRule(name: string): { position: number; production: boolean } {
  const stage = stageOf(name)
  return { position: RULE_POSITIONS[stage], production: stage === 'production' }
}

/** What is stored of an environment's place: null where nobody set it. */
export interface StoredPlace {
  name: string
  position: number | null
  production: boolean | null
}

/**
 * Environments in pipeline order, each with its place: what was set, else the rule's. Equal
 * positions go alphabetically (any case), so the order never depends on the database's.
 */
export function inPipelineOrder<T extends StoredPlace>(
  environments: readonly T[],
): (T & { position: number; production: boolean })[] {
  return environments
    .map((environment) => {
      const rule = placeByRule(environment.name)
      return {
        ...environment,
        position: environment.position ?? rule.position,
        production: environment.production ?? rule.production,
        key: nameKey(environment.name),
      }
    })
    .sort((a, b) => a.position - b.position || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(
      ({ key: _, ...environment }) => environment as T & { position: number; production: boolean },
    )
}
