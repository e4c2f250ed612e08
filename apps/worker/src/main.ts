import { loadEnvOrExit } from '@shiplog/config'
import { serveOperational } from '@shiplog/ops-http'
import { logLine } from '@shiplog/ops-http/log'
import { stopOnSignals } from '@shiplog/ops-http/shutdown'
import { loadWorkerEnv } from './env.ts'
import { createWorker } from './worker.ts'

const env = loadEnvOrExit(loadWorkerEnv)
const worker = createWorker(env, logLine)
// The worker's only HTTP surface: /healthz, /readyz (Postgres reachable, not shutting down) and
// /metrics, for Kubernetes and Prometheus.
const probes = await serveOperational(env.WORKER_PORT, {
  notReadyBecause: () => worker.notReadyBecause(),
  metrics: () => worker.scrape(),
})
await worker.start()
logLine({
  msg: 'worker started',
  batchSize: env.WORKER_BATCH_SIZE,
  concurrency: env.WORKER_CONCURRENCY,
})

stopOnSignals(
  async () => {
    await worker.stop()
    probes.close()
  },
  { timeoutMs: env.SHUTDOWN_TIMEOUT_MS, log: logLine },
)
