import { totalmem } from 'node:os'

const MIB = 2 ** 20

/**
 * The buffer cache of the embedded Postgres: a quarter of the machine's memory, at least
 * Postgres's own default of 128 MB and at most 1 GB. The default is a floor meant to start
 * anywhere; Postgres's guide for a server of its own is a quarter of the memory, and the embedded
 * one shares the machine with Shiplog and its tools, hence the cap. With 128 MB, a workspace of 5M
 * deployments no longer keeps the pages its writes touch (the commit index takes each new commit
 * at a random page): the worker's drain fell to 0.76× of an empty database's, and to 0.81–0.86×
 * with 1 GB (docs/scaling.md).
 */
export function embeddedSharedBuffers(machineBytes: number = totalmem()): string {
  const quarter = Math.floor(machineBytes / 4 / MIB)
  return `${Math.min(1024, Math.max(128, quarter))}MB`
}
