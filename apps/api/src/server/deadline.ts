import { problemResponse, problems } from '../kernel/problems.ts'

/** Answers a request; the shape of `app.fetch`. */
export type Handler = (request: Request) => Response | Promise<Response>

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Gives every request an answer within `timeoutMs`, whatever it waits on (a pool connection, a
 * lock, a slow client on the other side of a proxy): past the deadline it gets a 503 problem
 * instead of a connection the server's idle timeout cuts. A read is stopped and safe to retry; a
 * write may still commit, so it is answered as `outcome-unknown` (retry with its Idempotency-Key).
 * The handler keeps running to its own end; statement timeouts bound that.
 */
export function withDeadline(
  handle: Handler,
  timeoutMs: number,
  onTimeout: (request: Request) => void = () => {},
): Handler {
  return (request) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<Response>((resolve) => {
      timer = setTimeout(() => {
        onTimeout(request)
        resolve(
          problemResponse(
            SAFE_METHODS.has(request.method) ? problems.timeout() : problems.outcomeUnknown(),
          ),
        )
      }, timeoutMs)
    })
    return Promise.race([Promise.resolve().then(() => handle(request)), late]).finally(() =>
      clearTimeout(timer),
    )
  }
}
