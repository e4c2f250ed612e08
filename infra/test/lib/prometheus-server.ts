// Debian's real `prometheus`, scraping local targets every second, for the tests that check what
// Prometheus holds rather than what a /metrics text says.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startLocalDaemon } from '@shiplog/db/testing'

/** One sample of an instant query: its labels (with `__name__`) and value. */
export interface PromSample {
  metric: Record<string, string>
  value: number
}

export interface PrometheusServer {
  base: string
  /** An instant query's vector, at the server's now. */
  query(expr: string): Promise<PromSample[]>
  stop(): Promise<void>
}

/** Starts Prometheus scraping each job's `host:port` targets every second. */
export async function startPrometheus(jobs: Record<string, string[]>): Promise<PrometheusServer> {
  const directory = mkdtempSync(join(tmpdir(), 'shiplog-prometheus-'))
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    scrape_configs: Object.entries(jobs).map(([job, targets]) => ({
      job_name: job,
      static_configs: [{ targets }],
    })),
  }
  // JSON is YAML: no YAML writer needed.
  writeFileSync(join(directory, 'prometheus.yml'), JSON.stringify(config))
  const daemon = await startLocalDaemon(
    (port) => [
      'prometheus',
      `--config.file=${join(directory, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(directory, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    '/-/ready',
    'prometheus',
  )
  const { base } = daemon
  return {
    base,
    async query(expr) {
      const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expr)}`)
      const body = (await response.json()) as {
        status: string
        error?: string
        data: { result: { metric: Record<string, string>; value: [number, string] }[] }
      }
      if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`)
      return body.data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }))
    },
    async stop() {
      await daemon.stop()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
