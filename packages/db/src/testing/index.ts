// `@shiplog/db/testing`: what tests, benchmarks and fault scenarios outside this package use to
// get a database of their own, seed it, run the CLI against it and wait for what they started.
// Never imported by what ships.
export { type FailoverPair, startFailoverPair } from './failover-pair.ts'
export { randomPort } from './free-port.ts'
export {
  deploymentStatusFacts,
  deploymentStatusSuccess,
  gitHubDeliveryIdOf,
  gitHubHeaders,
  gitHubSignatureOf,
} from './github-deliveries.ts'
export { type LocalDaemon, startLocalDaemon } from './local-daemon.ts'
export { perFile } from './per-file.ts'
export { type OwnPostgres, startOwnPostgres } from './postgres-server.ts'
export { refuseVersion } from './refuse-version.ts'
export { runCli } from './run-cli.ts'
export { type Finished, runProcess } from './run-process.ts'
export { seedCommits } from './seed-commits.ts'
export { RARE_ENVIRONMENT, seedDeployments } from './seed-deployments.ts'
export {
  findPostgresBinaries,
  type StreamingReplica,
  startStreamingReplica,
} from './streaming-replica.ts'
export {
  createEmptyTestDatabase,
  createTestDatabase,
  stopTestServer,
  TEST_RETRY_POLICY,
  type TestDatabase,
  testServer,
} from './test-database.ts'
export { answersOk, waitFor } from './wait-for.ts'
