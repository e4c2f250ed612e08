// Debian's real Alertmanager (`prometheus-alertmanager`) on a given configuration, for the tests
// that check what Shiplog makes of what Alertmanager really sends.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startLocalDaemon } from '@shiplog/db/testing'

export interface AlertmanagerServer {
  base: string
  /** Pushes alerts through its API (v2), as Prometheus does. */
  push(alerts: PushedAlert[]): Promise<void>
  stop(): Promise<void>
}

export interface PushedAlert {
  labels: Record<string, string>
  annotations?: Record<string, string>
  startsAt: string
  /** In the past: the alert is resolved. */
  endsAt?: string
  generatorURL?: string
}

/**
 * Starts Alertmanager on `config` (an alertmanager.yml's text), its webhook's secret written to
 * the credentials file it names (`credentialsFile` replaced by a file of this test's).
 */
export async function startAlertmanager(
  config: string,
  secret: { credentialsFile: string; value: string },
): Promise<AlertmanagerServer> {
  const directory = mkdtempSync(join(tmpdir(), 'shiplog-alertmanager-'))
  const token = join(directory, 'token')
  writeFileSync(token, secret.value)
  writeFileSync(
    join(directory, 'alertmanager.yml'),
    config.replaceAll(secret.credentialsFile, token),
  )
  const daemon = await startLocalDaemon(
    (port) => [
      'prometheus-alertmanager',
      `--config.file=${join(directory, 'alertmanager.yml')}`,
      `--storage.path=${join(directory, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // One instance: no cluster to gossip with.
      '--cluster.listen-address=',
    ],
    '/-/ready',
    'Alertmanager',
  )
  const { base } = daemon
  return {
    base,
    async push(alerts) {
      const response = await fetch(`${base}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(alerts),
      })
      if (!response.ok)
        throw new Error(
          `Alertmanager refused the alerts: ${response.status} ${await response.text()}`,
        )
    },
    async stop() {
      await daemon.stop()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
