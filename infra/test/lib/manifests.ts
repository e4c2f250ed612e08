import { fileURLToPath } from 'node:url'
import type { IContainer, IPodSpec } from 'kubernetes-models/v1'
import { parseAllDocuments } from 'yaml'

/** The repository root and the chart, for commands and file reads. */
export const REPO = fileURLToPath(new URL('../../../', import.meta.url))
export const CHART = `${REPO}infra/helm/shiplog`

/** The fields every Kubernetes object has; the rest is checked by the schema validator. */
export interface K8sObject {
  apiVersion: string
  kind: string
  metadata: {
    name: string
    namespace?: string
    labels?: Record<string, string>
    annotations?: Record<string, string>
  }
  // biome-ignore lint/suspicious/noExplicitAny: the shape depends on kind; tests narrow it
  [field: string]: any
}

/** A Deployment's or Job's pod template, with its component label. */
export interface Workload {
  object: K8sObject
  component: string
  podLabels: Record<string, string>
  pod: IPodSpec
  containers: IContainer[]
}

/** Parses a multi-document YAML stream, failing on any syntax error. */
export function parseManifests(text: string): K8sObject[] {
  return parseAllDocuments(text).flatMap((document) => {
    if (document.errors.length > 0) throw new Error(document.errors.join('\n'))
    const value = document.toJS()
    return value === null ? [] : [value as K8sObject]
  })
}

/** Runs a command and returns its stdout, or throws with its stderr. */
export function run(command: string[]): string {
  const result = Bun.spawnSync(command, { cwd: REPO, stderr: 'pipe' })
  if (result.exitCode !== 0) {
    throw new Error(`${command.join(' ')} exited ${result.exitCode}:\n${result.stderr}`)
  }
  return result.stdout.toString()
}

const rendered = new Map<string, K8sObject[]>()

/** Renders a Kustomize overlay with the kubectl on PATH, once per test file; do not mutate. */
export function kustomize(overlay: string): K8sObject[] {
  let objects = rendered.get(overlay)
  if (!objects) {
    objects = parseManifests(run(['kubectl', 'kustomize', `infra/k8s/overlays/${overlay}`]))
    rendered.set(overlay, objects)
  }
  return objects
}

/** The helm binary, when installed; tests that need it are skipped without it. */
export const helm = Bun.which('helm')

/**
 * Renders the chart as release `shiplog` with the given values files and `--set` values (needs
 * helm), for the Kubernetes version the schemas check against: without a cluster, helm assumes
 * its own default (1.20 for the 3.6 binary CI installs), which the chart's kubeVersion refuses.
 * Throws with helm's message when the chart refuses the values.
 */
export function renderChart(valuesFiles: string[], set: string[] = []): string {
  return run([
    helm ?? 'helm',
    'template',
    'shiplog',
    CHART,
    '--namespace',
    'shiplog',
    '--kube-version',
    '1.30.0',
    ...valuesFiles.flatMap((file) => ['--values', file]),
    ...set.flatMap((value) => ['--set', value]),
  ])
}

/** The objects renderChart renders. */
export function helmTemplate(valuesFiles: string[], set: string[] = []): K8sObject[] {
  return parseManifests(renderChart(valuesFiles, set))
}

/** Objects of one kind. */
export function ofKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((object) => object.kind === kind)
}

/** The one object of a kind and name, or a failure naming what is missing. */
export function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name)
  if (!found) throw new Error(`no ${kind} named ${name} among the rendered objects`)
  return found
}

/** Whether a Helm hook marks the object as a `helm test` pod rather than part of the app. */
export function isHelmTest(object: K8sObject): boolean {
  return object.metadata.annotations?.['helm.sh/hook'] === 'test'
}

/** The pod templates of every Deployment and Job, which is every pod Shiplog runs. */
export function workloads(objects: K8sObject[]): Workload[] {
  return objects
    .filter((object) => object.kind === 'Deployment' || object.kind === 'Job')
    .map((object) => {
      const template = object.spec.template
      const podLabels: Record<string, string> = template.metadata?.labels ?? {}
      const pod: IPodSpec = template.spec
      return {
        object,
        component: podLabels['app.kubernetes.io/component'] ?? '(none)',
        podLabels,
        pod,
        containers: [...(pod.initContainers ?? []), ...pod.containers],
      }
    })
}

/** Whether a label selector's matchLabels select the given labels. */
export function selects(
  selector: { matchLabels?: Record<string, string> } | undefined,
  labels: Record<string, string>,
): boolean {
  const wanted = Object.entries(selector?.matchLabels ?? {})
  return wanted.length > 0 && wanted.every(([key, value]) => labels[key] === value)
}
