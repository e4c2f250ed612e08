export { loadEnvOrExit, parseEnv } from './env.ts'
