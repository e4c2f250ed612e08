// The API process, and its only entry: `bun apps/api/src/main.ts` (or `deno run -A` the same).
import { loadEnvOrExit } from '@shiplog/config'
import { loadApiEnv } from './env.ts'
import { runApi } from './lifecycle.ts'
import { wireApi } from './wiring.ts'

const env = loadEnvOrExit(loadApiEnv)
runApi(wireApi(env), env)
