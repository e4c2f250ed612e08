import * as client from '@kubernetes/client-node'
import type { K8sObject } from './manifests.ts'
import { typeErrors } from './typescript.ts'

interface Attribute {
  baseName: string
  type: string
}

// The Prometheus Operator's kinds (PrometheusRule, PodMonitor, ServiceMonitor), from its CRDs.
const OPERATOR = 'monitoring.coreos.com/'
const modelPackage = (apiVersion: string) =>
  apiVersion.startsWith(OPERATOR) ? '@kubernetes-models/prometheus-operator' : 'kubernetes-models'

/**
 * Validates an object against the Kubernetes OpenAPI schema of its apiVersion and kind, offline:
 * kubernetes-models ships one precompiled Ajv validator per type (types, required fields, formats
 * such as quantities), and @kubernetes-models/prometheus-operator one per kind of the operator's
 * CRDs. Returns the errors, or an empty list.
 */
export async function schemaErrors(object: K8sObject): Promise<string[]> {
  let model: { new (data: unknown): { validate(): void } }
  try {
    const path = `${modelPackage(object.apiVersion)}/${object.apiVersion}/${object.kind}`
    const module = await import(path)
    model = module[object.kind]
  } catch {
    return [`${object.apiVersion} ${object.kind} is not a Kubernetes API type`]
  }
  try {
    new model(object).validate()
    return []
  } catch (error) {
    return [`${object.kind}/${object.metadata.name}: ${(error as Error).message}`]
  }
}

/**
 * Fields the API server would reject under `kubectl apply`'s default strict field validation.
 * The OpenAPI schema allows unknown fields, so a typo (`readinesProbe`) would pass the schema
 * check; the client library's models list each type's fields, which this walks.
 */
export function unknownFields(object: K8sObject): string[] {
  const version = object.apiVersion.split('/').at(-1) ?? ''
  const root = `${version[0]?.toUpperCase()}${version.slice(1)}${object.kind}`
  if (!modelOf(root)) return [`no client model ${root} for ${object.apiVersion} ${object.kind}`]
  const found: string[] = []
  walk(object, root, `${object.kind}/${object.metadata.name}`, found)
  return found
}

/**
 * Fields of Prometheus Operator objects that their CRD does not define. The CRD schemas allow
 * unknown fields (the API server prunes them, or refuses them under strict validation), so the
 * objects are type-checked as literals of the models' interfaces, which list every field.
 */
export function customResourceFieldErrors(objects: K8sObject[]): string[] {
  const custom = objects.filter((object) => object.apiVersion.startsWith(OPERATOR))
  const kinds = [...new Set(custom.map((object) => `${object.apiVersion}/${object.kind}`))]
  const imports = kinds.map((path) => {
    const kind = path.split('/').at(-1)
    return `import type { I${kind} } from '@kubernetes-models/prometheus-operator/${path}'`
  })
  const literals = custom.map(
    (object, index) =>
      `// ${object.kind}/${object.metadata.name}\nexport const object${index}: I${object.kind} = ${JSON.stringify(object, null, 2)}`,
  )
  return custom.length === 0 ? [] : typeErrors([...imports, ...literals].join('\n'))
}

function modelOf(type: string): Attribute[] | undefined {
  const model = (client as unknown as Record<string, { attributeTypeMap?: Attribute[] }>)[type]
  return model?.attributeTypeMap
}

function walk(value: unknown, type: string, path: string, found: string[]): void {
  if (value === null || typeof value !== 'object') return
  const array = /^Array<(.+)>$/.exec(type)
  if (array?.[1] && Array.isArray(value)) {
    for (const [index, item] of value.entries()) walk(item, array[1], `${path}[${index}]`, found)
    return
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type)
  if (map?.[1]) {
    for (const [key, item] of Object.entries(value)) walk(item, map[1], `${path}.${key}`, found)
    return
  }
  const attributes = modelOf(type)
  if (!attributes) return
  for (const [key, item] of Object.entries(value)) {
    const attribute = attributes.find((candidate) => candidate.baseName === key)
    if (attribute) walk(item, attribute.type, `${path}.${key}`, found)
    else found.push(`${path}.${key}`)
  }
}
