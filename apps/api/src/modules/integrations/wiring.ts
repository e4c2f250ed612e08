import type { Sql } from '@shiplog/db/client'
import { AddressLimiter } from '../../plugins/rate-limit/address-limiter.ts'
import { IntegrationDirectory } from './directory.ts'
import { Receiver, type ReceiverDeps } from './receiver.ts'
import { Sealer, sealingKeyBytes } from './sealing.ts'
import type { IntegrationSettings } from './service.ts'

/** The integrations' configuration, from the API's settings. */
export interface IntegrationConfig {
  sealingKey: string | undefined
  publicUrl: string | undefined
  graceSeconds: number
  bodyMaxBytes: number
  bodyTimeoutMs: number
  ratePerMinute: number
  refused?: ReceiverDeps['refused']
}

/** The endpoints' settings and the receiver, sharing one directory of integrations. */
export function wireIntegrations(sql: Sql, config: IntegrationConfig) {
  const keyBytes = config.sealingKey === undefined ? undefined : sealingKeyBytes(config.sealingKey)
  const sealer = keyBytes && new Sealer(keyBytes)
  const directory = new IntegrationDirectory(sql)
  const settings: IntegrationSettings = {
    sealer,
    publicUrl: config.publicUrl,
    graceSeconds: config.graceSeconds,
    directory,
  }
  const receiver = new Receiver({
    sql,
    directory,
    sealer,
    limiter: new AddressLimiter({
      capacity: config.ratePerMinute,
      perMinute: config.ratePerMinute,
    }),
    maxBodyBytes: config.bodyMaxBytes,
    bodyTimeoutMs: config.bodyTimeoutMs,
    refused: config.refused,
  })
  return { settings, receiver }
}

export type WiredIntegrations = ReturnType<typeof wireIntegrations>
