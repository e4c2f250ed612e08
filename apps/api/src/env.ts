import { parseEnv } from '@shiplog/config'
import { type Static, Type } from '@sinclair/typebox'
import { SIGN_IN_SETTINGS } from './modules/access/sign-in-env.ts'
import { signInProblems } from './modules/access/sign-in-settings.ts'

/** Every setting of the API, read from environment variables and nowhere else. */
export const ApiEnv = Type.Object({
  DATABASE_URL: Type.String({
    pattern: '^postgres(ql)?://',
    errorMessage: 'a postgres:// or postgresql:// URL',
    description:
      'Postgres URL, e.g. postgres://user:pass@host:5432/shiplog; several hosts as libpq takes them (postgres://user:pass@h1:5432,h2:5432/shiplog): Shiplog writes only to whichever is the primary, and finds the new one after a failover ([High availability](operations.md#postgres-fails-over))',
  }),
  DATABASE_READ_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      errorMessage: 'a postgres:// or postgresql:// URL',
      description:
        'Postgres URL of a streaming replica of `DATABASE_URL`: the read endpoints query it, with `DATABASE_POOL_SIZE` connections of their own ([Reads on a replica](decisions.md#reads-on-a-replica)); several hosts allowed, any of them used, standby or primary; unset, reads share `DATABASE_URL`',
    }),
  ),
  PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 3000,
    description: 'Port of the API, the dashboard and the CLI download; `0` binds any free port',
  }),
  HOST: Type.String({
    minLength: 1,
    default: '0.0.0.0',
    description: 'Address the API and its `/metrics` listen on (`0.0.0.0`: every IPv4 interface)',
  }),
  METRICS_PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 9091,
    description:
      'Port of `/metrics` alone, never the public `PORT` (the Ingress routes that one); `0` means any free port, not off',
  }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 100,
    description:
      'Tokens a key gains per minute, unless the key has a limit of its own (`keys create --rate-limit`)',
  }),
  RATE_LIMIT_BURST: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'Bucket capacity per key; unset, `RATE_LIMIT_PER_MINUTE`',
    }),
  ),
  UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 60,
    description: 'Requests without a valid key, per client address and replica',
  }),
  ENQUEUE_BATCH_SIZE: Type.Integer({
    minimum: 1,
    maximum: 5000,
    default: 500,
    description: 'Most requests per queue commit; `1` disables group commit',
  }),
  ENQUEUE_BATCH_WAIT_MS: Type.Number({
    minimum: 0,
    maximum: 100,
    default: 2,
    description: 'Longest a request waits for others to share its commit',
  }),
  ENQUEUE_MAX_IN_FLIGHT: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 2,
    description: 'Queue commits running at once',
  }),
  DATABASE_POOL_SIZE: Type.Integer({
    minimum: 2,
    maximum: 200,
    default: 10,
    description:
      'Postgres connections; reads take at most this less 2, so writes, key checks and readiness always have some; as many again to `DATABASE_READ_URL` when it is set',
  }),
  BODY_MAX_BYTES: Type.Integer({
    minimum: 1024,
    default: 65_536,
    description: "Larger bodies get `413` (a deployment's commits may take 2 MiB)",
  }),
  BODY_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 10_000,
    description: 'A body must arrive within this, else `408`; less than `REQUEST_TIMEOUT_MS`',
  }),
  STATEMENT_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 5_000,
    description:
      'A Postgres statement running longer is cancelled (`503` `timeout`); less than `REQUEST_TIMEOUT_MS`',
  }),
  REQUEST_TIMEOUT_MS: Type.Integer({
    minimum: 200,
    default: 20_000,
    description: 'Every request is answered by then; must exceed the two above',
  }),
  READ_CONCURRENCY_PER_KEY: Type.Integer({
    minimum: 1,
    default: 2,
    description: 'Reads one key may have running at once (more get `429`)',
  }),
  IDLE_TIMEOUT_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 255,
    default: 10,
    description:
      'Idle connections (and clients trickling headers) are closed after this; not under Deno',
  }),
  CLIENT_IP_HEADER: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9-]+$',
      errorMessage: 'a header name such as x-forwarded-for (letters, digits and dashes)',
      description:
        "Header naming the client behind a proxy, e.g. `x-forwarded-for` (its last entry is used); unset, the socket's address",
    }),
  ),
  SHUTDOWN_DELAY_MS: Type.Integer({
    minimum: 0,
    default: 0,
    description: 'After SIGTERM, keep serving (readiness failing) this long before draining',
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    minimum: 0,
    default: 20_000,
    description: 'Hard stop if draining takes longer',
  }),
  INTEGRATION_SEALING_KEY: Type.Optional(
    Type.String({
      pattern: '^\\s*[A-Za-z0-9+/_-]{43}=?\\s*$',
      errorMessage: '32 random bytes in base64, e.g. the output of `openssl rand -base64 32`',
      description:
        'Seals the secrets of GitHub integrations (AES-256-GCM): 32 random bytes in base64 (`openssl rand -base64 32`). Never logged; keep it in a Secret. Unset, GitHub integrations cannot be created (`bun run dev` makes one)',
    }),
  ),
  INTEGRATION_SECRET_GRACE_SECONDS: Type.Integer({
    minimum: 0,
    default: 3600,
    description:
      'After an integration’s secret is rotated, the previous one is still accepted this long',
  }),
  INTEGRATION_BODY_MAX_BYTES: Type.Integer({
    minimum: 26_214_400,
    default: 26_214_400,
    description:
      'Largest delivery an integration takes (`413` above); at least 25 MiB, GitHub’s own cap',
  }),
  INTEGRATION_RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 6_000,
    description: 'Deliveries one integration may send per minute to each replica (more get `429`)',
  }),
  LOG_REQUESTS: Type.Boolean({
    default: true,
    description: 'One JSON line per request on stdout',
  }),
  ...SIGN_IN_SETTINGS,
})
export type ApiEnv = Static<typeof ApiEnv>

// Timeouts nest so that every request gets an answer: a statement is cancelled before its
// request's deadline, and a body that stalls gets its 408 before the deadline too. The server's
// idle timer is raised past the deadline while a request is handled (see lib/listener.ts).
function nestingProblems(env: ApiEnv): string[] {
  const problems: string[] = []
  if (env.STATEMENT_TIMEOUT_MS >= env.REQUEST_TIMEOUT_MS) {
    problems.push(
      `STATEMENT_TIMEOUT_MS (${env.STATEMENT_TIMEOUT_MS}) must be less than REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS})`,
    )
  }
  if (env.BODY_TIMEOUT_MS >= env.REQUEST_TIMEOUT_MS) {
    problems.push(
      `BODY_TIMEOUT_MS (${env.BODY_TIMEOUT_MS}) must be less than REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS})`,
    )
  }
  return problems
}

// Metrics must not be served on the public listener, which the Ingress routes to.
function portProblems(env: ApiEnv): string[] {
  return env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT
    ? [`METRICS_PORT (${env.METRICS_PORT}) must differ from PORT`]
    : []
}

/** Reads and validates the API's configuration; throws naming every bad variable. */
export function loadApiEnv(source: Record<string, string | undefined>): ApiEnv {
  const env = parseEnv(ApiEnv, source)
  const problems = [...nestingProblems(env), ...portProblems(env), ...signInProblems(env)]
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`)
  }
  return env
}
