/** One request the driver sent and what came back (status 0: no HTTP answer at all). */
export interface Sent {
  version: string
  status: number
  retryAfter: string | null
  /** Milliseconds until the answer (or the failure). */
  ms: number
}

/** Posts one deployment with `version`; status 0 when no HTTP answer came. */
export async function postDeployment(url: string, key: string, version: string): Promise<Sent> {
  const startedAt = performance.now()
  const ms = () => Math.round(performance.now() - startedAt)
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        repositoryFullName: 'acme/faults',
        environment: 'production',
        app: `app-${version.length % 7}`,
        version,
        commitHash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
      }),
      signal: AbortSignal.timeout(15_000),
    })
    await response.arrayBuffer()
    return {
      version,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      ms: ms(),
    }
  } catch {
    return { version, status: 0, retryAfter: null, ms: ms() }
  }
}

/**
 * Posts probes until one is accepted, adding each to `sent`; resolves with how long recovery
 * took. This is how a scenario shows the service came back by itself.
 */
export async function untilAccepted(
  url: string,
  key: string,
  sent: Sent[],
  label: string,
  timeoutMs = 30_000,
) {
  const startedAt = Date.now()
  for (let attempt = 1; Date.now() - startedAt < timeoutMs; attempt++) {
    const result = await postDeployment(url, key, `${label}-probe-${attempt}`)
    sent.push(result)
    if (result.status === 202) return Date.now() - startedAt
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no 202 within ${timeoutMs} ms`)
}

/** How the driver pushes. */
export interface DriveOptions {
  url: string
  key: string
  /** Requests in flight at once. */
  concurrency: number
  /** Prefix of the unique version each request carries, so rows can be matched to requests. */
  label: string
  /** Pause between a connection's requests (ms), to hold a steady moderate rate. */
  pauseMs?: number
}

/**
 * Sends deployments, each with a unique version, until `stop()` is called, recording every
 * answer. Runs in the test process; the service runs in its own processes.
 */
export class LoadDriver {
  readonly sent: Sent[] = []
  private running = true
  private readonly loops: Promise<void>[]
  private counter = 0

  constructor(private readonly options: DriveOptions) {
    this.loops = Array.from({ length: options.concurrency }, () => this.loop())
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const version = `${this.options.label}-${++this.counter}`
      const result = await postDeployment(this.options.url, this.options.key, version)
      this.sent.push(result)
      // A refused request waits a moment before the next, as a client honouring Retry-After would.
      if (result.status !== 202) await new Promise((resolve) => setTimeout(resolve, 50))
      if (this.options.pauseMs)
        await new Promise((resolve) => setTimeout(resolve, this.options.pauseMs))
    }
  }

  /** Answers so far with this status. */
  count(status: number): number {
    return this.sent.filter((sent) => sent.status === status).length
  }

  /** Stops sending and waits for the requests in flight. */
  async stop(): Promise<Sent[]> {
    this.running = false
    await Promise.all(this.loops)
    return this.sent
  }
}
