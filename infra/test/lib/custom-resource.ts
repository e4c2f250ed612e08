import { readFileSync } from 'node:fs'
import { type CelInput, isCelError, run } from '@bufbuild/cel'
import Ajv, { type AnySchemaObject, type ErrorObject } from 'ajv'
import { parse } from 'yaml'
import type { K8sObject } from './manifests.ts'

/** A node of a CRD's openAPIV3Schema (a structural schema), with the keywords this file reads. */
interface SchemaNode {
  type?: string
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
  additionalProperties?: SchemaNode | boolean
  anyOf?: SchemaNode[]
  allOf?: SchemaNode[]
  oneOf?: SchemaNode[]
  'x-kubernetes-preserve-unknown-fields'?: boolean
  [keyword: string]: unknown
}

// Annotations for the API server's own use (list and map merge semantics), not constraints.
const ANNOTATIONS = [
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
]

/**
 * A validator of one kind of custom resource against the openAPIV3Schema of its
 * CustomResourceDefinition (a YAML file as the operator publishes it), as the API server applies
 * it to `kubectl apply`, whose field validation is strict: types, formats, enums, patterns and
 * required fields (Ajv), fields the schema does not declare, and the schema's CEL rules
 * (x-kubernetes-validations, evaluated with @bufbuild/cel). Returns the errors, or an empty list.
 * What an operator's admission webhook checks besides is not in the CRD, so not here.
 */
export function customResourceValidator(crdFile: string): (object: K8sObject) => string[] {
  const crd = parse(readFileSync(crdFile, 'utf8'))
  const { group, names, versions } = crd.spec as {
    group: string
    names: { kind: string }
    versions: { name: string; schema: { openAPIV3Schema: SchemaNode } }[]
  }
  // strictTypes off: an int-or-string field has a pattern for its string form beside anyOf.
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false })
  for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword })
  ajv.addKeyword({ keyword: 'x-kubernetes-validations', validate: celRules, errors: true })
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  })
  ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger })
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i)
  const validators = new Map(
    versions.map((version) => [
      `${group}/${version.name}`,
      ajv.compile(strict(version.schema.openAPIV3Schema)),
    ]),
  )
  return (object) => {
    const where = `${object.kind}/${object.metadata?.name}`
    const validate = validators.get(object.apiVersion)
    if (object.kind !== names.kind || !validate) {
      return [`${where}: ${object.apiVersion} ${object.kind} is not defined by ${crdFile}`]
    }
    if (validate(object)) return []
    return (validate.errors ?? []).map((error) => `${where}: ${describe(error)}`)
  }
}

/**
 * The schema with `additionalProperties: false` wherever it lists an object's properties and
 * neither allows others nor preserves unknown fields: the API server refuses such fields under
 * strict field validation (and drops them silently otherwise), where JSON Schema would allow them.
 */
function strict(node: SchemaNode): SchemaNode {
  const copy: SchemaNode = { ...node }
  if (node.properties) {
    copy.properties = Object.fromEntries(
      Object.entries(node.properties).map(([key, child]) => [key, strict(child)]),
    )
    if (node.additionalProperties === undefined && !node['x-kubernetes-preserve-unknown-fields']) {
      copy.additionalProperties = false
    }
  }
  if (node.items) copy.items = strict(node.items)
  if (typeof node.additionalProperties === 'object') {
    copy.additionalProperties = strict(node.additionalProperties)
  }
  for (const key of ['anyOf', 'allOf', 'oneOf'] as const) {
    const branches = node[key]
    if (branches) copy[key] = branches.map(strict)
  }
  return copy
}

/** Evaluates a node's CEL rules with `self` bound to its value, as the API server does. */
function celRules(
  rules: { rule: string; message?: string }[],
  data: unknown,
  parentSchema?: AnySchemaObject,
): boolean {
  const self = celValue(data, parentSchema as SchemaNode) as CelInput
  const failed = rules
    // Transition rules compare with the stored object (oldSelf): they apply to updates only.
    .filter(({ rule }) => !/\boldSelf\b/.test(rule))
    .flatMap(({ rule, message }) => {
      const result = run(rule, { self })
      // A value of the wrong type fails the rule too (no such overload), beside its type error.
      if (isCelError(result)) return [`${rule} could not be evaluated: ${result.message}`]
      return result === true ? [] : [message ?? `failed rule: ${rule}`]
    })
  celRules.errors = failed.map((message) => ({ keyword: 'x-kubernetes-validations', message }))
  return failed.length === 0
}
celRules.errors = [] as Partial<ErrorObject>[]

/** A JSON value as the API server hands it to CEL: objects as maps, integers as CEL ints. */
function celValue(value: unknown, schema: SchemaNode | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => celValue(item, schema?.items))
  if (value !== null && typeof value === 'object') {
    return new Map(
      Object.entries(value).map(([key, item]) => {
        const additional = schema?.additionalProperties
        const child =
          schema?.properties?.[key] ?? (typeof additional === 'object' ? additional : undefined)
        return [key, celValue(item, child)]
      }),
    )
  }
  if (typeof value === 'number' && schema?.type === 'integer') return BigInt(value)
  return value
}

function describe(error: ErrorObject): string {
  const path = error.instancePath || '/'
  if (error.keyword === 'additionalProperties') {
    return `${path}: unknown field ${error.params.additionalProperty}`
  }
  return `${path}: ${error.message}`
}
