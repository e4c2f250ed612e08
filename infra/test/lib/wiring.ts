import { type K8sObject, ofKind, selects, workloads } from './manifests.ts'
import { type Check, failed } from './policy.ts'

interface IngressPath {
  backend: { service: { name: string; port: { name?: string; number?: number } } }
}
interface PortRule {
  ports?: { port?: string | number }[]
}

function exists(objects: K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((object) => object.kind === kind && object.metadata.name === name)
}

/** References between objects: each must land on an object, pod or port that exists. */
export const WIRING: Record<string, Check> = {
  'every Ingress backend is a port of a rendered Service': (objects) =>
    ofKind(objects, 'Ingress').flatMap((ingress) =>
      (ingress.spec.rules ?? [])
        .flatMap((rule: { http: { paths: IngressPath[] } }) => rule.http.paths)
        .filter(({ backend: { service } }: IngressPath) => {
          const ports: { name: string; port: number }[] =
            exists(objects, 'Service', service.name)?.spec.ports ?? []
          return !ports.some((p) => p.name === service.port.name || p.port === service.port.number)
        })
        .map(
          ({ backend: { service } }: IngressPath) =>
            `Ingress/${ingress.metadata.name}: no Service port ${service.name}:${service.port.name}`,
        ),
    ),

  'every HPA scales a rendered Deployment on CPU, every PDB selects pods': (objects) => [
    ...ofKind(objects, 'HorizontalPodAutoscaler').flatMap((hpa) => {
      const { kind, name } = hpa.spec.scaleTargetRef
      const where = `HorizontalPodAutoscaler/${hpa.metadata.name}`
      return failed([
        !exists(objects, kind, name) && `${where}: no ${kind} ${name}`,
        !hpa.spec.metrics?.some(
          (metric: { resource?: { name: string } }) => metric.resource?.name === 'cpu',
        ) && `${where}: does not scale on CPU`,
      ])
    }),
    ...ofKind(objects, 'PodDisruptionBudget')
      .filter(
        (pdb) => !workloads(objects).some(({ podLabels }) => selects(pdb.spec.selector, podLabels)),
      )
      .map((pdb) => `PodDisruptionBudget/${pdb.metadata.name}: selects no pods`),
  ],

  'every NetworkPolicy selects pods, admits only their ports, lets out Postgres and DNS': (
    objects,
  ) =>
    ofKind(objects, 'NetworkPolicy').flatMap((policy) => {
      const where = `NetworkPolicy/${policy.metadata.name}`
      const selected = workloads(objects).filter(({ podLabels }) =>
        selects(policy.spec.podSelector, podLabels),
      )
      const podPorts = selected.flatMap(({ containers }) =>
        containers.flatMap((container) => container.ports ?? []),
      )
      const ingress = (policy.spec.ingress ?? []).flatMap((rule: PortRule) => rule.ports ?? [])
      const egress = (policy.spec.egress ?? []).flatMap((rule: PortRule) => rule.ports ?? [])
      return failed([
        selected.length === 0 && `${where}: selects no pods`,
        ...ingress
          .filter(
            ({ port }: { port?: string | number }) =>
              !podPorts.some((p) => p.name === port || p.containerPort === port),
          )
          .map(
            ({ port }: { port?: string | number }) =>
              `${where}: admits port ${port}, which its pods do not expose`,
          ),
        !egress.some(({ port }: { port?: number }) => port === 5432) &&
          `${where}: no egress to Postgres (5432)`,
        !egress.some(({ port }: { port?: number }) => port === 53) &&
          `${where}: no egress to DNS (53)`,
      ])
    }),
}
