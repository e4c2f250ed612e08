import { describe, expect, test } from 'bun:test'
import {
  INTERNAL_REQUESTS,
  PUBLIC_REQUESTS,
  PUBLIC_ROUTES,
  routedRequests,
  routeTable,
} from './lib/ingress.ts'
import { schemaErrors, unknownFields } from './lib/kubernetes-schema.ts'
import { find, kustomize, ofKind } from './lib/manifests.ts'

const OVERLAYS = ['dev', 'production'] as const

for (const overlay of OVERLAYS) {
  describe(`kustomize overlays/${overlay}`, () => {
    test('kubectl kustomize renders it with the expected kinds and names', () => {
      const objects = kustomize(overlay)
      const names = objects.map((object) => `${object.kind}/${object.metadata.name}`)
      const expected = [
        'ServiceAccount/shiplog',
        'Deployment/shiplog-api',
        'Service/shiplog-api',
        'Ingress/shiplog-api',
        'PodDisruptionBudget/shiplog-api',
        'Deployment/shiplog-worker',
        'Service/shiplog-worker',
        'Job/shiplog-migrate',
        'NetworkPolicy/shiplog-api',
        'NetworkPolicy/shiplog-worker',
        'NetworkPolicy/shiplog-migrate',
      ]
      expect(names).toEqual(expect.arrayContaining(expected))
      // The Secret is created by the operator, never rendered with a value.
      expect(ofKind(objects, 'Secret')).toEqual([])
    })

    test('every object validates against the Kubernetes API schema', async () => {
      const objects = kustomize(overlay)
      const errors = (await Promise.all(objects.map(schemaErrors))).flat()
      expect(errors).toEqual([])
    })

    test('no object has a field the API server would reject as unknown', () => {
      expect(kustomize(overlay).flatMap(unknownFields)).toEqual([])
    })

    test('the Ingress routes /, /ui, /docs, /openapi.json, /cli, /v1 and /hooks to the API, never /healthz, /readyz or /metrics', () => {
      const ingress = find(kustomize(overlay), 'Ingress', 'shiplog-api')
      expect(ingress.spec.defaultBackend).toBeUndefined()
      expect(routeTable(ingress)).toEqual(
        PUBLIC_ROUTES.map((route) => ({ ...route, service: 'shiplog-api', port: 'http' })),
      )
      expect(routedRequests(ingress, PUBLIC_REQUESTS)).toEqual(PUBLIC_REQUESTS)
      expect(routedRequests(ingress, [...INTERNAL_REQUESTS, '/uix', '/docs/x', '/v1x'])).toEqual([])
    })

    test('every object lands in the overlay namespace', () => {
      const namespace = overlay === 'dev' ? 'shiplog-dev' : 'shiplog'
      const elsewhere = kustomize(overlay).filter(
        (object) => object.metadata.namespace !== namespace,
      )
      expect(elsewhere.map((object) => object.metadata.name)).toEqual([])
    })
  })
}

describe('kustomize overlay differences', () => {
  test('dev: one replica each, no autoscaler, request logs, small requests', () => {
    const objects = kustomize('dev')
    expect(find(objects, 'Deployment', 'shiplog-api').spec.replicas).toBe(1)
    expect(find(objects, 'Deployment', 'shiplog-worker').spec.replicas).toBe(1)
    expect(ofKind(objects, 'HorizontalPodAutoscaler')).toEqual([])
    const config = ofKind(objects, 'ConfigMap').find((map) =>
      map.metadata.name.startsWith('shiplog-api-'),
    )
    expect(config?.data.LOG_REQUESTS).toBe('true')
    const api = find(objects, 'Deployment', 'shiplog-api').spec.template.spec.containers[0]
    expect(api.resources.requests).toEqual({ cpu: '50m', memory: '96Mi' })
  })

  test('production: HPA 3-20, PDB minAvailable 2, two workers, TLS ingress, 5 s shutdown delay', () => {
    const objects = kustomize('production')
    const hpa = find(objects, 'HorizontalPodAutoscaler', 'shiplog-api').spec
    expect([hpa.minReplicas, hpa.maxReplicas]).toEqual([3, 20])
    // The autoscaler owns the API's replica count (see deployment-api.yaml).
    expect(find(objects, 'Deployment', 'shiplog-api').spec.replicas).toBeUndefined()
    const pdb = find(objects, 'PodDisruptionBudget', 'shiplog-api').spec
    expect(pdb).toMatchObject({ minAvailable: 2 })
    expect(pdb.maxUnavailable).toBeUndefined()
    expect(find(objects, 'Deployment', 'shiplog-worker').spec.replicas).toBe(2)
    const ingress = find(objects, 'Ingress', 'shiplog-api').spec
    expect(ingress.rules[0].host).toBe('shiplog.example.com')
    expect(ingress.tls).toEqual([{ hosts: ['shiplog.example.com'], secretName: 'shiplog-tls' }])
    const config = ofKind(objects, 'ConfigMap').find((map) =>
      map.metadata.name.startsWith('shiplog-api-'),
    )
    expect(config?.data).toMatchObject({
      SHUTDOWN_DELAY_MS: '5000',
      CLIENT_IP_HEADER: 'x-forwarded-for',
    })
    const api = find(objects, 'Deployment', 'shiplog-api').spec.template.spec.containers[0]
    expect(api.resources).toEqual({
      requests: { cpu: '250m', memory: '128Mi' },
      limits: { cpu: '1', memory: '256Mi' },
    })
  })
})
