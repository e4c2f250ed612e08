import { isHelmTest, type K8sObject } from './manifests.ts'

// Labels both renderers must agree on; Helm adds its own (chart, version, managed-by).
const SHARED_LABELS = [
  'app.kubernetes.io/name',
  'app.kubernetes.io/instance',
  'app.kubernetes.io/component',
  'app.kubernetes.io/part-of',
]

/** Kustomize suffixes generated ConfigMap names with a content hash; Helm does not. */
function withoutHash(name: string): string {
  return name.replace(/-[a-z0-9]{10}$/, '')
}

function pick(record: Record<string, string> | undefined, keep: (key: string) => boolean) {
  return Object.fromEntries(Object.entries(record ?? {}).filter(([key]) => keep(key)))
}

/**
 * An object reduced to what Kustomize and Helm must render alike: its kind, name, shared labels
 * and everything under spec or data. Differences that are each tool's own (hash suffixes, Helm's
 * labels and hook annotations, a config checksum, the Job TTL that a Helm hook policy replaces)
 * are removed.
 */
export function comparable(object: K8sObject): unknown {
  const { apiVersion, kind, metadata, ...body } = structuredClone(object)
  const name = kind === 'ConfigMap' ? withoutHash(metadata.name) : metadata.name
  if (kind === 'Job') delete body.spec.ttlSecondsAfterFinished
  const template = body.spec?.template
  if (template) {
    template.metadata.labels = pick(template.metadata.labels, (key) => SHARED_LABELS.includes(key))
    template.metadata.annotations = pick(template.metadata.annotations, (key) =>
      key.startsWith('prometheus.io/'),
    )
    for (const container of template.spec.containers) {
      for (const from of container.envFrom ?? []) {
        if (from.configMapRef) from.configMapRef.name = withoutHash(from.configMapRef.name)
      }
    }
  }
  const labels = pick(metadata.labels, (key) => SHARED_LABELS.includes(key))
  return { apiVersion, kind, name, labels, ...body }
}

function key(object: unknown): string {
  const { kind, name } = object as { kind: string; name: string }
  return `${kind}/${name}`
}

/** The app's objects (not `helm test` pods), comparable and in a stable order. */
export function comparableSet(objects: K8sObject[]): unknown[] {
  return objects
    .filter((object) => !isHelmTest(object))
    .map(comparable)
    .sort((a, b) => key(a).localeCompare(key(b)))
}
