/** What `pushedStream` hands back: the body, and when its producer got going or ended. */
export interface PushedStream {
  stream: ReadableStream<Uint8Array>
  /** Resolves at the first chunk (or the end); rejects if the producer failed before either. */
  ready: Promise<void>
  /** Settles when the producer has finished, failed, or stopped because the reader left. */
  done: Promise<void>
}

const encoder = new TextEncoder()

/**
 * A response body fed by `produce`, which pushes text and waits until the reader wants more: the
 * first chunk is queued at once (so a failure before any byte can still be answered as a
 * problem), every later one only once the reader asked. Memory holds a chunk or two, however
 * much is sent. When the reader goes away, the next push throws, which ends the producer.
 */
export function pushedStream(
  produce: (push: (text: string) => Promise<void>) => Promise<void>,
): PushedStream {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let wanted = Promise.withResolvers<void>()
  let gone: Error | undefined
  let first = true
  const started = Promise.withResolvers<void>()
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c
      },
      pull: () => wanted.resolve(),
      cancel: () => {
        gone = new Error('the reader went away')
        wanted.resolve()
      },
    },
    { highWaterMark: 0 },
  )
  const push = async (text: string) => {
    if (!first) await wanted.promise
    if (gone) throw gone
    wanted = Promise.withResolvers<void>()
    controller.enqueue(encoder.encode(text))
    if (first) started.resolve()
    first = false
  }
  const done = produce(push).then(
    () => {
      started.resolve()
      if (!gone) controller.close()
    },
    (error: unknown) => {
      started.reject(error)
      if (!gone) controller.error(error)
    },
  )
  // Once started, a later failure only cuts the body short; `ready` has settled by then.
  started.promise.catch(() => {})
  return { stream, ready: started.promise, done }
}
