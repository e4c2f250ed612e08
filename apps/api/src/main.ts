import { loadApiEnv } from './env.ts'
import { logLine } from './lib/log.ts'
import { createApiServer } from './server.ts'

let env: ReturnType<typeof loadApiEnv>
try {
  env = loadApiEnv(process.env)
} catch (error) {
  console.error((error as Error).message)
  process.exit(2)
}

const api = createApiServer(env)
const server = api.app.listen({ port: env.PORT, hostname: env.HOST })
logLine({ msg: 'api listening', port: server.server?.port, host: env.HOST })
void api.start().then(() => logLine({ msg: 'queue producer started' }))

let shuttingDown = false
async function stop(signal: string) {
  if (shuttingDown) return
  shuttingDown = true
  logLine({ msg: 'shutting down', signal })
  const deadline = setTimeout(() => {
    logLine({ level: 'error', msg: 'shutdown timed out; exiting' })
    process.exit(1)
  }, env.SHUTDOWN_TIMEOUT_MS)
  await api.shutdown(async () => {
    await server.stop(false)
  })
  clearTimeout(deadline)
  logLine({ msg: 'stopped' })
  process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
