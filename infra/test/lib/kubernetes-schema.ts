import * as client from '@kubernetes/client-node'
import type { K8sObject } from './manifests.ts'

interface Attribute {
  baseName: string
  type: string
}

/**
 * Validates an object against the Kubernetes OpenAPI schema of its apiVersion and kind, offline:
 * kubernetes-models ships one precompiled Ajv validator per type (types, required fields, formats
 * such as quantities). Returns the errors, or an empty list.
 */
export async function schemaErrors(object: K8sObject): Promise<string[]> {
  let model: { new (data: unknown): { validate(): void } }
  try {
    const module = await import(`kubernetes-models/${object.apiVersion}/${object.kind}`)
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
