import { isMap, isScalar, parseDocument, type YAMLMap } from 'yaml'

/** One documented setting of values.yaml: its dotted path, and whether a comment precedes it. */
export interface ValuePath {
  path: string
  commented: boolean
}

// Maps documented as a whole: their keys are the app's variables, Kubernetes' resource fields or
// PostgreSQL's settings.
const WHOLE = /\.(config|resources|parameters)$/

/**
 * The settings of a values file: leaves, empty maps, and the maps documented as a whole. The
 * yaml parser attaches the comment of a map's first key to the map itself, so that counts too.
 */
export function valuePaths(text: string): ValuePath[] {
  const found: ValuePath[] = []
  const walk = (map: YAMLMap, prefix: string) => {
    map.items.forEach((pair, index) => {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key)
      const path = prefix ? `${prefix}.${key}` : key
      const comment =
        (isScalar(pair.key) && pair.key.commentBefore) || (index === 0 && map.commentBefore)
      if (isMap(pair.value) && pair.value.items.length > 0 && !WHOLE.test(path)) {
        walk(pair.value, path)
      } else {
        found.push({ path, commented: typeof comment === 'string' && comment.includes('--') })
      }
    })
  }
  const root = parseDocument(text).contents
  if (isMap(root)) walk(root, '')
  return found
}
