export { loadEnvOrExit, parseEnv } from './env.ts'
export { type EnvSchema, type EnvVariable, envVariables } from './env-reference.ts'
