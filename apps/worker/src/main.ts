import { serveOperational } from '@shiplog/ops-http'
import { loadWorkerEnv } from './env.ts'
import { createWorker } from './worker.ts'

const log = (line: Record<string, unknown>) =>
  console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', ...line }))

let env: ReturnType<typeof loadWorkerEnv>
try {
  env = loadWorkerEnv(process.env)
} catch (error) {
  console.error((error as Error).message)
  process.exit(2)
}

const worker = createWorker(env, log)
// The worker's only HTTP surface: /healthz, /readyz (Postgres reachable, not shutting down) and
// /metrics, for Kubernetes and Prometheus.
const probes = await serveOperational(env.WORKER_PORT, {
  notReadyBecause: () => worker.notReadyBecause(),
  metrics: () => worker.scrape(),
})
await worker.start()
log({
  msg: 'worker started',
  batchSize: env.WORKER_BATCH_SIZE,
  concurrency: env.WORKER_CONCURRENCY,
})

let stopping = false
async function stop(signal: string) {
  if (stopping) return
  stopping = true
  log({ msg: 'shutting down', signal })
  const deadline = setTimeout(() => {
    log({ level: 'error', msg: 'shutdown timed out; exiting' })
    process.exit(1)
  }, env.SHUTDOWN_TIMEOUT_MS)
  await worker.stop()
  probes.close()
  clearTimeout(deadline)
  log({ msg: 'stopped' })
  process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
