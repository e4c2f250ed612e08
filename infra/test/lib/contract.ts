import { existsSync, readFileSync } from 'node:fs'
import type { IContainer } from 'kubernetes-models/v1'
import { parse } from 'yaml'
import {
  INTERNAL_REQUESTS,
  type IngressRoute,
  ingressRoutes,
  matches,
  PUBLIC_REQUESTS,
  PUBLIC_ROUTES,
} from './ingress.ts'
import {
  CHART,
  find,
  type K8sObject,
  ofKind,
  REPO,
  selects,
  type Workload,
  workloads,
} from './manifests.ts'
import { type Check, failed } from './policy.ts'
import {
  effectiveValue,
  knownVariables,
  PROCESSES,
  type Process,
  requiredVariables,
} from './processes.ts'

/** The image every workload runs: the chart's appVersion, so Helm and Kustomize ship one build. */
export const IMAGE = `ghcr.io/shiplog/shiplog:${parse(readFileSync(`${CHART}/Chart.yaml`, 'utf8')).appVersion}`

/** Where a variable's value comes from, as the container will see it. */
type Source = { value: string } | { secret: { name: string; key: string } } | { other: true }

/** Every variable a container gets, from `env` and from ConfigMaps through `envFrom`. */
export function variablesOf(objects: K8sObject[], container: IContainer): Map<string, Source> {
  const variables = new Map<string, Source>()
  for (const from of container.envFrom ?? []) {
    const name = from.configMapRef?.name ?? from.secretRef?.name ?? '(unnamed)'
    const kind = from.configMapRef ? 'ConfigMap' : 'Secret'
    const data = find(objects, kind, name).data ?? {}
    for (const [key, value] of Object.entries<string>(data)) variables.set(key, { value })
  }
  for (const variable of container.env ?? []) {
    const secret = variable.valueFrom?.secretKeyRef
    variables.set(
      variable.name,
      variable.value !== undefined
        ? { value: variable.value }
        : secret
          ? { secret: { name: secret.name ?? '', key: secret.key } }
          : { other: true },
    )
  }
  return variables
}

/** Whether an `env` value of the container holds `$(NAME)`, which Kubernetes expands. */
function composed(container: IContainer, name: string): boolean {
  return (container.env ?? []).some((variable) => variable.value?.includes(`$(${name})`))
}

function literals(sources: Map<string, Source>): Map<string, string> {
  const values = new Map<string, string>()
  for (const [name, source] of sources) if ('value' in source) values.set(name, source.value)
  return values
}

interface ServicePort {
  name?: string
  port: number
  targetPort?: string | number
}
interface IngressBackend {
  service: { name: string; port: { name?: string; number?: number } }
}

/** The container ports (names or numbers) of pods with these labels that a backend reaches. */
function backendPorts(
  objects: K8sObject[],
  { service }: IngressBackend,
  podLabels: Record<string, string>,
): (string | number)[] {
  const target = objects.find(
    (object) => object.kind === 'Service' && object.metadata.name === service.name,
  )
  if (!target || !selects({ matchLabels: target.spec.selector }, podLabels)) return []
  return (target.spec.ports as ServicePort[])
    .filter((p) => p.name === service.port.name || p.port === service.port.number)
    .map((p) => p.targetPort ?? p.port)
}

/** The container ports (names or numbers) of pods with these labels that an Ingress reaches. */
function routedPorts(objects: K8sObject[], podLabels: Record<string, string>): (string | number)[] {
  return ofKind(objects, 'Ingress').flatMap((ingress) =>
    ingressRoutes(ingress).flatMap(({ backend }) => backendPorts(objects, backend, podLabels)),
  )
}

/** Each workload with its process, the main container and that container's variables. */
function processes(objects: K8sObject[]) {
  return workloads(objects).map((workload: Workload) => {
    const process = PROCESSES[workload.component] as Process | undefined
    const container = workload.pod.containers[0] as IContainer
    const sources = variablesOf(objects, container)
    return { ...workload, process, container, sources, values: literals(sources) }
  })
}

/** What the manifests must agree on with the app: commands, variables, ports, shutdown. */
export const CONTRACT: Record<string, Check> = {
  'each workload runs its component command, from a file that exists, in the released image': (
    objects,
  ) =>
    processes(objects).flatMap(({ object, process, container }) => {
      const where = `${object.kind}/${object.metadata.name}`
      if (!process) return [`${where}: no process for its component label`]
      const script = process.command[1] ?? ''
      return failed([
        JSON.stringify(container.command) !== JSON.stringify(process.command) &&
          `${where}: command ${JSON.stringify(container.command)}, want ${JSON.stringify(process.command)}`,
        !existsSync(`${REPO}${script}`) && `${where}: ${script} does not exist in the repository`,
        container.image !== IMAGE && `${where}: image ${container.image}, want ${IMAGE}`,
      ])
    }),

  'every variable set is one its process reads; DATABASE_URL comes from a Secret, url or uri': (
    objects,
  ) =>
    processes(objects).flatMap(({ object, process, container, sources }) => {
      if (!process) return []
      const where = `${object.kind}/${object.metadata.name}`
      const known = knownVariables(process)
      const database = sources.get('DATABASE_URL')
      const secret = database && 'secret' in database ? database.secret : undefined
      // uri in the Secret the CloudNativePG operator writes for a rendered Cluster, else url.
      const clusters = ofKind(objects, 'Cluster').map((cluster) => `${cluster.metadata.name}-app`)
      const key = secret && clusters.includes(secret.name) ? 'uri' : 'url'
      return failed([
        ...[...sources.keys()]
          .filter((name) => !known.includes(name) && !composed(container, name))
          .map((name) => `${where}: sets ${name}, which ${process.command[1]} does not read`),
        ...requiredVariables(process)
          .filter((name) => !sources.has(name))
          .map((name) => `${where}: does not set required ${name}`),
        // The CLI could fall back to an embedded Postgres, which the image does not contain.
        !secret && `${where}: DATABASE_URL is not taken from a Secret`,
        secret !== undefined &&
          secret.key !== key &&
          `${where}: DATABASE_URL comes from key ${secret.key}, not ${key}`,
      ])
    }),

  'the HTTP port equals PORT / WORKER_PORT, and the Service targets it': (objects) =>
    processes(objects).flatMap(({ object, process, container, values, podLabels }) => {
      if (!process?.port) return []
      const where = `${object.kind}/${object.metadata.name}`
      const { variable, name } = process.port
      const port = container.ports?.find((candidate) => candidate.name === name)
      const value = effectiveValue(process, values, variable)
      const services = ofKind(objects, 'Service').filter((service) =>
        selects({ matchLabels: service.spec.selector }, podLabels),
      )
      return failed([
        !port && `${where}: no container port named ${name}`,
        port !== undefined &&
          String(port.containerPort) !== value &&
          `${where}: port ${name} is ${port.containerPort} but ${variable} is ${value}`,
        services.length === 0 && `${where}: no Service selects its pods`,
        ...services
          .filter(
            (service) =>
              !service.spec.ports.some((p: { targetPort: unknown }) => p.targetPort === name),
          )
          .map((service) => `Service/${service.metadata.name}: does not target port ${name}`),
      ])
    }),

  "metrics are on METRICS_PORT / WORKER_PORT, scraped there; the API's are not public or routed": (
    objects,
  ) =>
    processes(objects).flatMap(({ object, process, container, values, podLabels }) => {
      if (!process?.metricsPort) return []
      const where = `${object.kind}/${object.metadata.name}`
      const { variable, name } = process.metricsPort
      const port = container.ports?.find((candidate) => candidate.name === name)
      const value = effectiveValue(process, values, variable)
      // A process whose only port serves /metrics (the worker) has no public port to keep apart.
      const apart = process.port !== undefined && process.port.variable !== variable
      const publicPort = apart ? effectiveValue(process, values, process.port?.variable ?? '') : ''
      const annotated = object.spec.template.metadata?.annotations?.['prometheus.io/port']
      const routed = apart
        ? routedPorts(objects, podLabels).filter((p) => p === name || String(p) === value)
        : []
      return failed([
        !port && `${where}: no container port named ${name}`,
        port !== undefined &&
          String(port.containerPort) !== value &&
          `${where}: port ${name} is ${port.containerPort} but ${variable} is ${value}`,
        apart && value === publicPort && `${where}: ${variable} is the public port ${publicPort}`,
        annotated !== undefined &&
          annotated !== value &&
          `${where}: prometheus.io/port is ${annotated}, but /metrics is on ${variable} ${value}`,
        routed.length > 0 && `${where}: an Ingress routes to the metrics port ${name}`,
      ])
    }),

  "the Ingress routes exactly the API's public paths to its http port, never /healthz, /readyz or /metrics":
    (objects) => {
      const api = processes(objects).find(({ component }) => component === 'api')
      const http = api?.process?.port
      const key = ({ pathType, path }: { pathType: string; path: string }) => `${pathType} ${path}`
      const wanted = PUBLIC_ROUTES.map(key)
      return ofKind(objects, 'Ingress').flatMap((ingress) => {
        const where = `Ingress/${ingress.metadata.name}`
        const routes = ingressRoutes(ingress)
        const routed = routes.map(key)
        const reachesApi = (route: IngressRoute) => {
          if (!api || !http) return false
          const port = api.container.ports?.find((candidate) => candidate.name === http.name)
          return backendPorts(objects, route.backend, api.podLabels).some(
            (target) => target === http.name || target === port?.containerPort,
          )
        }
        return failed([
          !api && `${where}: no API workload to route to`,
          ingress.spec.defaultBackend !== undefined &&
            `${where}: a defaultBackend routes every path, /healthz and /metrics too`,
          ...wanted
            .filter((route) => !routed.includes(route))
            .map((route) => `${where}: does not route ${route}`),
          ...routed
            .filter((route) => !wanted.includes(route))
            .map(
              (route) => `${where}: routes ${route}, which is not one of the API's public paths`,
            ),
          ...routed
            .filter((route, index) => wanted.includes(route) && routed.indexOf(route) !== index)
            .map((route) => `${where}: routes ${route} more than once`),
          ...routes
            .filter((route) => api && !reachesApi(route))
            .map((route) => `${where}: ${key(route)} does not reach the API's ${http?.name} port`),
          ...INTERNAL_REQUESTS.flatMap((request) =>
            routes
              .filter((route) => matches(route, request))
              .map((route) => `${where}: ${key(route)} routes ${request}`),
          ),
          ...PUBLIC_REQUESTS.filter(
            (request) => !routes.some((route) => matches(route, request)),
          ).map((request) => `${where}: no path routes ${request}`),
        ])
      })
    },

  'terminationGracePeriodSeconds covers the shutdown delay and drain timeout': (objects) =>
    processes(objects).flatMap(({ object, process, pod, values }) => {
      if (!process) return []
      const needed = process.shutdownVariables.reduce(
        (sum, name) => sum + Number(effectiveValue(process, values, name) ?? 0),
        0,
      )
      const grace = (pod.terminationGracePeriodSeconds ?? 30) * 1000
      return grace < needed
        ? [`${object.kind}/${object.metadata.name}: ${needed} ms of shutdown exceeds ${grace} ms`]
        : []
    }),
}
