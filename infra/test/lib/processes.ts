import { ApiEnv } from '../../../apps/api/src/env.ts'
import { CliEnv } from '../../../apps/cli/src/env.ts'
import { WorkerEnv } from '../../../apps/worker/src/env.ts'

/** The part of a TypeBox object schema these checks read. */
interface EnvSchema {
  properties: Record<string, { default?: unknown }>
  required?: string[]
}

/** What the manifests must agree with about one Shiplog process, read from the app itself. */
export interface Process {
  component: 'api' | 'worker' | 'migrate'
  command: string[]
  /** The app's own env schema (TypeBox): the variables it reads, defaults, required ones. */
  env: EnvSchema
  /** The variable that sets the HTTP port, and the container port name that must match it. */
  port?: { variable: string; name: string }
  /** The same for the port serving `/metrics`; the API's is apart from its public port. */
  metricsPort?: { variable: string; name: string }
  /** Variables whose sum, in milliseconds, must fit terminationGracePeriodSeconds. */
  shutdownVariables: string[]
}

/** The three processes the image runs, keyed by component label. */
export const PROCESSES: Record<string, Process> = {
  api: {
    component: 'api',
    command: ['bun', 'apps/api/src/main.ts'],
    env: ApiEnv,
    port: { variable: 'PORT', name: 'http' },
    metricsPort: { variable: 'METRICS_PORT', name: 'metrics' },
    shutdownVariables: ['SHUTDOWN_DELAY_MS', 'SHUTDOWN_TIMEOUT_MS'],
  },
  worker: {
    component: 'worker',
    command: ['bun', 'apps/worker/src/main.ts'],
    env: WorkerEnv,
    port: { variable: 'WORKER_PORT', name: 'metrics' },
    metricsPort: { variable: 'WORKER_PORT', name: 'metrics' },
    shutdownVariables: ['SHUTDOWN_TIMEOUT_MS'],
  },
  migrate: {
    component: 'migrate',
    command: ['bun', 'apps/cli/src/migrate.ts'],
    env: CliEnv,
    shutdownVariables: [],
  },
}

/** The variable names a process reads. */
export function knownVariables(process: Process): string[] {
  return Object.keys(process.env.properties)
}

/** Variables the process refuses to start without: required by the schema and no default. */
export function requiredVariables(process: Process): string[] {
  const { properties, required = [] } = process.env
  return required.filter((name) => properties[name]?.default === undefined)
}

/** A variable's value as the process would see it: the one set, else the schema's default. */
export function effectiveValue(
  process: Process,
  variables: Map<string, string>,
  name: string,
): string | undefined {
  return variables.get(name) ?? process.env.properties[name]?.default?.toString()
}
