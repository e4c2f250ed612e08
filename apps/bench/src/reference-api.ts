// The design group commit replaced, served for comparison in the same benchmark run: the same
// app, except every accepted request is one pg-boss send() on pg-boss's own pool, one commit each.
import type { Enqueuer } from '@shiplog/api/enqueue/enqueuer'
import { toJob } from '@shiplog/api/enqueue/job-payload'
import { loadApiEnv } from '@shiplog/api/env'
import { uuidv7 } from '@shiplog/api/kernel/uuidv7'
import { runApi } from '@shiplog/api/lifecycle'
import { wireApi } from '@shiplog/api/wiring'
import { DEPLOYMENTS_QUEUE, PgBoss } from '@shiplog/db/queue'

const env = loadApiEnv(process.env)
const boss = new PgBoss({
  connectionString: env.DATABASE_URL,
  max: 10,
  migrate: false,
  supervise: false,
  schedule: false,
})
boss.on('error', (error) => console.error('pg-boss (bench reference API):', String(error)))
await boss.start()

const sendPerRequest: Enqueuer = {
  async enqueue(item) {
    const id = uuidv7(item.receivedAt.getTime())
    await boss.send(DEPLOYMENTS_QUEUE, toJob(item, id), { id })
    return { kind: 'queued', id }
  },
  whenIdle: async () => {},
}

runApi(
  wireApi(env, undefined, () => sendPerRequest),
  env,
)
