// The manifests' contract with the running app, checked live: each workload of the production
// overlay is started here with exactly its rendered command, variables and ports, probed and
// scraped on the paths and ports the manifest names, and stopped with SIGTERM within its grace
// period.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spawn } from 'node:child_process'
import { createTestDatabase, randomPort, type TestDatabase } from '@shiplog/db/testing'
import type { IContainer, IProbe } from 'kubernetes-models/v1'
import { variablesOf } from './lib/contract.ts'
import { type K8sObject, kustomize, REPO, workloads } from './lib/manifests.ts'

const objects: K8sObject[] = kustomize('production')
let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database?.drop())

/** The container's environment as Kubernetes would give it, with the secret pointed at our database. */
function environmentOf(
  container: IContainer,
  ports: Record<string, number>,
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, source] of variablesOf(objects, container)) {
    if ('value' in source) env[name] = source.value
    else if ('secret' in source && name === 'DATABASE_URL') env[name] = database.url
  }
  // Local ports are shared by every test run, so each rendered port is replaced, consistently.
  for (const [name, port] of Object.entries(ports)) if (name in env) env[name] = String(port)
  return env
}

const freePort = randomPort

async function probeAnswers(probe: IProbe | undefined, port: number): Promise<number> {
  const path = probe?.httpGet?.path
  if (!path) throw new Error('the probe is not an HTTP GET')
  const response = await fetch(`http://127.0.0.1:${port}${path}`).catch(() => undefined)
  return response?.status ?? 0
}

const deployments = workloads(objects).filter((workload) => workload.object.kind === 'Deployment')

describe('the rendered workloads run as rendered', () => {
  test('the production overlay has the API and worker Deployments and the migration Job', () => {
    expect(deployments.map((workload) => workload.component).sort()).toEqual(['api', 'worker'])
    expect(workloads(objects).some((workload) => workload.object.kind === 'Job')).toBe(true)
  })

  test('the migration Job runs its command to completion', async () => {
    const job = workloads(objects).find((workload) => workload.object.kind === 'Job')
    const container = job?.containers[0] as IContainer
    const [command, ...args] = [...(container.command ?? []), ...(container.args ?? [])]
    const exit = await new Promise<number | null>((resolve) => {
      const child = spawn(command as string, args, {
        cwd: REPO,
        env: { ...process.env, ...environmentOf(container, {}) },
        stdio: 'ignore',
      })
      child.on('exit', resolve)
    })
    expect(exit).toBe(0)
  }, 60_000)

  for (const workload of deployments) {
    test(`${workload.component}: probes and /metrics answer on the manifest's paths and ports; SIGTERM exits 0 in the grace period`, async () => {
      const container = workload.containers[0] as IContainer
      const port = freePort()
      const local: Record<string, number> = {
        PORT: port,
        WORKER_PORT: port,
        METRICS_PORT: freePort(),
      }
      const probePortName = container.readinessProbe?.httpGet?.port
      const declared = container.ports?.find(
        (entry) => entry.name === probePortName || entry.containerPort === probePortName,
      )
      // Kubernetes probes a port the container declares: a number, not a dangling name.
      expect(declared?.containerPort).toBeInteger()
      const env = environmentOf(container, local)
      // The probes' port is the one the process listens on: the rendered PORT/WORKER_PORT.
      const rendered = variablesOf(objects, container)
      const portVariable = rendered.has('WORKER_PORT') ? 'WORKER_PORT' : 'PORT'
      const renderedPort = rendered.get(portVariable)
      expect(renderedPort && 'value' in renderedPort ? Number(renderedPort.value) : undefined).toBe(
        declared?.containerPort,
      )

      const [command, ...args] = [...(container.command ?? []), ...(container.args ?? [])]
      const child = spawn(command as string, args, {
        cwd: REPO,
        env: { ...process.env, ...env },
        stdio: 'ignore',
      })
      const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
        child.once('exit', (code) => resolve({ code, at: Date.now() })),
      )
      try {
        const deadline = Date.now() + 30_000
        let ready = 0
        while (Date.now() < deadline && ready !== 200) {
          ready = await probeAnswers(container.readinessProbe, port)
          if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
        }
        expect(ready).toBe(200)
        expect(await probeAnswers(container.livenessProbe, port)).toBe(200)

        // Prometheus scrapes the port the annotations name: the one of the variable rendered
        // with that value. For the API that is METRICS_PORT, and its public port has no /metrics.
        const annotations = workload.object.spec.template.metadata?.annotations ?? {}
        const scrapeVariable = Object.keys(local).find((name) => {
          const source = rendered.get(name)
          return source && 'value' in source && source.value === annotations['prometheus.io/port']
        })
        // The API's metrics have a listener of their own; the worker serves them beside its probes.
        expect(scrapeVariable).toBe(workload.component === 'api' ? 'METRICS_PORT' : 'WORKER_PORT')
        const scrapePort = local[scrapeVariable ?? ''] as number
        const scrape = await fetch(
          `http://127.0.0.1:${scrapePort}${annotations['prometheus.io/path']}`,
        )
        expect(scrape.status).toBe(200)
        expect(await scrape.text()).toContain('# TYPE shiplog_')
        if (scrapePort !== port) {
          expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404)
        }

        const grace = Number(workload.pod.terminationGracePeriodSeconds ?? 30) * 1000
        const signalledAt = Date.now()
        child.kill('SIGTERM')
        const exit = await exited
        expect(exit.code).toBe(0)
        expect(exit.at - signalledAt).toBeLessThan(grace)
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL')
      }
    }, 90_000)
  }
})
