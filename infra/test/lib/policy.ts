import { readFileSync } from 'node:fs'
import { parseDockerfile, type Stage, userOf } from './dockerfile.ts'
import { type K8sObject, REPO, selects, workloads } from './manifests.ts'

/** A check over rendered objects: each returned line is one violation. */
export type Check = (objects: K8sObject[]) => string[]

const LABELS = ['app.kubernetes.io/name', 'app.kubernetes.io/instance', 'app.kubernetes.io/part-of']

/** Keeps the conditions that hold: each one's message is a violation. */
export function failed(conditions: (string | false)[]): string[] {
  return conditions.filter((line): line is string => typeof line === 'string')
}

/** Converts a CPU or memory quantity to a plain number (cores or bytes) for comparison. */
export function quantity(value: string | number): number {
  const match = /^([0-9.]+)(m|k|M|G|Ki|Mi|Gi)?$/.exec(String(value))
  if (!match) throw new Error(`unsupported quantity ${value}`)
  const factor: Record<string, number> = {
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
  }
  return Number(match[1]) * (match[2] ? (factor[match[2]] ?? 1) : 1)
}

/** The ids the image runs as (its Dockerfile's last USER): pods must run as the same. */
export const IMAGE_USER = userOf(
  parseDockerfile(readFileSync(`${REPO}Dockerfile`, 'utf8')).at(-1) as Stage,
) ?? { uid: Number.NaN, gid: Number.NaN }

/** The lowest uid a pod may run as: below it are the people of most hosts. */
export const MIN_UID = 10_000

/** Why a security context's ids are not the image's, if they are not. */
function idsOf(context: { runAsUser?: number; runAsGroup?: number } | undefined, where: string) {
  return failed([
    context?.runAsUser !== IMAGE_USER.uid &&
      `${where}: runAsUser is ${context?.runAsUser}, the image's uid is ${IMAGE_USER.uid}`,
    context?.runAsGroup !== IMAGE_USER.gid &&
      `${where}: runAsGroup is ${context?.runAsGroup}, the image's gid is ${IMAGE_USER.gid}`,
    !(IMAGE_USER.uid >= MIN_UID && IMAGE_USER.gid >= MIN_UID) &&
      `${where}: the image's ids (${IMAGE_USER.uid}:${IMAGE_USER.gid}) are below ${MIN_UID}`,
  ])
}

/** The hardening and operability rules every Shiplog pod and container must follow. */
export const POLICIES: Record<string, Check> = {
  "every pod runs as the image's uid and gid (10000 or above), non-root, seccomp RuntimeDefault, without a service account token":
    (objects) =>
      workloads(objects).flatMap(({ object, pod }) => {
        const context = pod.securityContext
        const where = `${object.kind}/${object.metadata.name}`
        return failed([
          context?.runAsNonRoot !== true && `${where}: pod runAsNonRoot is not true`,
          ...idsOf(context, `${where}: pod`),
          context?.seccompProfile?.type !== 'RuntimeDefault' &&
            `${where}: pod seccompProfile is not RuntimeDefault`,
          pod.automountServiceAccountToken !== false &&
            `${where}: the service account token is mounted`,
        ])
      }),

  'every container: non-root, no privilege escalation, read-only root, drops ALL, seccomp': (
    objects,
  ) =>
    workloads(objects).flatMap(({ object, containers }) =>
      containers.flatMap((container) => {
        const context = container.securityContext
        const where = `${object.kind}/${object.metadata.name} container ${container.name}`
        return failed([
          context?.runAsNonRoot !== true && `${where}: runAsNonRoot is not true`,
          ...idsOf(context, where),
          context?.allowPrivilegeEscalation !== false &&
            `${where}: allowPrivilegeEscalation is not false`,
          context?.readOnlyRootFilesystem !== true &&
            `${where}: readOnlyRootFilesystem is not true`,
          context?.privileged === true && `${where}: privileged`,
          !context?.capabilities?.drop?.includes('ALL') &&
            `${where}: does not drop ALL capabilities`,
          (context?.capabilities?.add?.length ?? 0) > 0 && `${where}: adds capabilities`,
          context?.seccompProfile?.type !== 'RuntimeDefault' &&
            `${where}: seccompProfile is not RuntimeDefault`,
        ])
      }),
    ),

  'every container requests and limits CPU and memory, requests within limits': (objects) =>
    workloads(objects).flatMap(({ object, containers }) =>
      containers.flatMap((container) => {
        const where = `${object.kind}/${object.metadata.name} container ${container.name}`
        const { requests = {}, limits = {} } = container.resources ?? {}
        return ['cpu', 'memory'].flatMap((resource) => {
          const request = requests[resource]
          const limit = limits[resource]
          if (request === undefined) return [`${where}: no ${resource} request`]
          if (limit === undefined) return [`${where}: no ${resource} limit`]
          return quantity(request) > quantity(limit)
            ? [`${where}: ${resource} request ${request} exceeds limit ${limit}`]
            : []
        })
      }),
    ),

  'every long-running container has /healthz liveness and /readyz readiness probes': (objects) =>
    workloads(objects)
      // A Job's container runs to completion: there is nothing to keep alive or route to.
      .filter(({ object }) => object.kind !== 'Job')
      .flatMap(({ object, containers }) =>
        containers.flatMap((container) => {
          const where = `${object.kind}/${object.metadata.name} container ${container.name}`
          const portNames = (container.ports ?? []).map((port) => port.name)
          const probe = (kind: 'livenessProbe' | 'readinessProbe', path: string) => {
            const httpGet = container[kind]?.httpGet
            if (!httpGet) return [`${where}: no HTTP ${kind}`]
            return failed([
              httpGet.path !== path && `${where}: ${kind} path is ${httpGet.path}, not ${path}`,
              !portNames.includes(String(httpGet.port)) &&
                `${where}: ${kind} port ${httpGet.port} is not a named container port`,
            ])
          }
          return [...probe('livenessProbe', '/healthz'), ...probe('readinessProbe', '/readyz')]
        }),
      ),

  'every container image is pinned to a version tag, never latest': (objects) =>
    workloads(objects).flatMap(({ object, containers }) =>
      containers
        .filter((container) => !/^[^:@\s]+:v?\d+\.\d+\.\d+$/.test(container.image ?? ''))
        .map(
          (container) =>
            `${object.kind}/${object.metadata.name} container ${container.name}: image ` +
            `${container.image} is not pinned to a version tag`,
        ),
    ),

  'every pod mounts an emptyDir at /tmp, the only writable path': (objects) =>
    workloads(objects).flatMap(({ object, pod, containers }) => {
      const emptyDirs = (pod.volumes ?? []).filter((volume) => volume.emptyDir)
      return containers
        .filter(
          (container) =>
            !container.volumeMounts?.some(
              (mount) =>
                mount.mountPath === '/tmp' &&
                emptyDirs.some((volume) => volume.name === mount.name),
            ),
        )
        .map((container) => `${object.kind}/${object.metadata.name} ${container.name}: no /tmp`)
    }),

  'every pod has terminationGracePeriodSeconds 30': (objects) =>
    workloads(objects)
      .filter(({ pod }) => pod.terminationGracePeriodSeconds !== 30)
      .map(
        ({ object, pod }) =>
          `${object.kind}/${object.metadata.name}: terminationGracePeriodSeconds is ` +
          `${pod.terminationGracePeriodSeconds}`,
      ),

  'every Deployment spreads its pods across zones and hosts, ScheduleAnyway': (objects) =>
    workloads(objects)
      // A single-pod Job has nothing to spread.
      .filter(({ object }) => object.kind === 'Deployment')
      .flatMap(({ object, pod, podLabels }) =>
        ['topology.kubernetes.io/zone', 'kubernetes.io/hostname'].flatMap((key) => {
          const constraint = pod.topologySpreadConstraints?.find(
            (candidate) => candidate.topologyKey === key,
          )
          const where = `Deployment/${object.metadata.name}`
          if (!constraint) return [`${where}: no spread over ${key}`]
          const selectsOwnPods = selects(constraint.labelSelector, podLabels)
          return failed([
            constraint.whenUnsatisfiable !== 'ScheduleAnyway' &&
              `${where}: spread over ${key} is not ScheduleAnyway`,
            !selectsOwnPods && `${where}: spread over ${key} does not select its own pods`,
          ])
        }),
      ),

  'every object and pod carries the app.kubernetes.io labels, pods their component': (objects) => [
    ...objects.flatMap((object) =>
      LABELS.filter((label) => !object.metadata.labels?.[label]).map(
        (label) => `${object.kind}/${object.metadata.name}: no label ${label}`,
      ),
    ),
    ...workloads(objects).flatMap(({ object, podLabels }) =>
      [...LABELS, 'app.kubernetes.io/component']
        .filter((label) => !podLabels[label])
        .map((label) => `${object.kind}/${object.metadata.name} pods: no label ${label}`),
    ),
    ...workloads(objects)
      .filter(({ component }) => !['api', 'worker', 'migrate'].includes(component))
      .map(({ object, component }) => `${object.metadata.name}: unknown component ${component}`),
  ],
}
