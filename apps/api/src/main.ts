import { loadApiEnv } from './env.ts'
import { serve } from './serve.ts'
import { createApiServer } from './server.ts'

let env: ReturnType<typeof loadApiEnv>
try {
  env = loadApiEnv(process.env)
} catch (error) {
  console.error((error as Error).message)
  process.exit(2)
}

serve(createApiServer(env), env)
