import { createConnection } from 'node:net'

/** How a hand-driven HTTP exchange ended. */
export interface RawOutcome {
  /** The status line's code, 0 when the server closed without answering. */
  status: number
  ms: number
}

/**
 * Sends `head` (request line and headers), then trickles `body` one byte every `intervalMs`,
 * as a slow or hostile client would, until the server answers or closes; gives up after
 * `timeoutMs`. With `trickleHead`, the head itself is trickled too.
 */
export function trickle(options: {
  host: string
  port: number
  head: string
  body: string
  intervalMs: number
  timeoutMs: number
  trickleHead?: boolean
}): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const startedAt = Date.now()
    const socket = createConnection({ host: options.host, port: options.port })
    let received = ''
    let timer: ReturnType<typeof setInterval> | undefined
    const finish = (status: number) => {
      clearInterval(timer)
      clearTimeout(deadline)
      socket.destroy()
      resolve({ status, ms: Date.now() - startedAt })
    }
    const deadline = setTimeout(() => finish(-1), options.timeoutMs)
    socket.on('data', (chunk) => {
      received += chunk
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received)
      if (match) finish(Number(match[1]))
    })
    socket.on('close', () => finish(0))
    socket.on('error', () => finish(0))
    socket.on('connect', () => {
      const pending = options.trickleHead ? options.head + options.body : options.body
      if (!options.trickleHead) socket.write(options.head)
      let index = 0
      timer = setInterval(() => {
        if (index < pending.length && !socket.destroyed) socket.write(pending[index++] as string)
      }, options.intervalMs)
    })
  })
}
