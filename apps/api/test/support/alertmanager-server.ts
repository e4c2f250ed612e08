// Debian's real Alertmanager (`prometheus-alertmanager`) on a given configuration, for the tests
// that check what Shiplog makes of what Alertmanager really sends.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { answersOk, randomPort, waitFor } from '@shiplog/db/testing'

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
  const port = randomPort()
  const child: ChildProcess = spawn(
    'prometheus-alertmanager',
    [
      `--config.file=${join(directory, 'alertmanager.yml')}`,
      `--storage.path=${join(directory, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // One instance: no cluster to gossip with.
      '--cluster.listen-address=',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  const output: string[] = []
  child.stderr?.on('data', (chunk) => output.push(String(chunk)))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const base = `http://127.0.0.1:${port}`
  await waitFor(() => answersOk(`${base}/-/ready`), 'Alertmanager to be ready', 30_000).catch(
    (error) => {
      child.kill('SIGKILL')
      throw new Error(`${error.message}: ${output.join('').slice(-2000)}`)
    },
  )
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
      child.kill('SIGTERM')
      await exited
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
