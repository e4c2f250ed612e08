import { HttpProblem, problems } from '../kernel/problems.ts'
import { repeatedKey } from './duplicate-keys.ts'

/** Limits for reading a request body. */
export interface BodyLimits {
  maxBytes: number
  /** A body must arrive within this time; a client trickling bytes cannot hold a request open. */
  timeoutMs: number
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i

/** Whether a Content-Type names JSON: `application/json` or any `application/*+json`. */
export const isJsonContentType = (contentType: string | null) => JSON_TYPE.test(contentType ?? '')
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i
const UTF8 = /^utf-?8$/i

function notJson(message: string, expected: string) {
  return problems.validation(
    [{ field: 'body', message }],
    `The request body must be a JSON object with ${expected}.`,
  )
}

/**
 * Reads and parses a JSON request body without ever holding more than `maxBytes` of it: 413 for
 * a larger body, 408 for one that does not arrive in time, 422 for anything that is not JSON,
 * whose detail says the body must be a JSON object with `expected` ("the deployment fields").
 */
export async function readJsonBody(
  request: Request,
  limits: BodyLimits,
  expected: string,
): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > limits.maxBytes) throw problems.bodyTooLarge(limits.maxBytes)
  const contentType = request.headers.get('content-type') ?? ''
  if (!isJsonContentType(contentType)) {
    throw notJson(
      `must be sent with Content-Type: application/json (got "${contentType || 'none'}")`,
      expected,
    )
  }
  const charset = CHARSET.exec(contentType)?.[1]
  if (charset !== undefined && !UTF8.test(charset)) {
    throw notJson(
      `must be UTF-8, as JSON is (Content-Type says charset=${charset.slice(0, 40)})`,
      expected,
    )
  }
  const bytes = await readBounded(request, limits).catch((error) => {
    // The client went away mid-body (or sent something the runtime cannot read): its fault, not ours.
    if (error instanceof HttpProblem) throw error
    throw problems.bodyUnreadable()
  })
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw notJson('is not valid UTF-8', expected)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    // Deeply nested input can overflow the parser's stack; that is still just bad JSON.
    const reason = error instanceof SyntaxError ? error.message : 'nesting is too deep'
    throw notJson(`is not valid JSON (${reason})`, expected)
  }
  const repeated = repeatedKey(text)
  if (repeated !== undefined) {
    throw notJson(
      `holds the key ${JSON.stringify(repeated.slice(0, 100))} twice in one object: send each field once`,
      expected,
    )
  }
  return parsed
}

/**
 * `readJsonBody` for a body a client may leave out (a DELETE's reason): undefined when none was
 * sent, that is no length (or 0) and no content type.
 */
export function readOptionalJsonBody(
  request: Request,
  limits: BodyLimits,
  expected: string,
): Promise<unknown> {
  const length = request.headers.get('content-length')
  const chunked = request.headers.has('transfer-encoding')
  if (length === '0' || (length === null && !chunked && !request.headers.has('content-type'))) {
    return Promise.resolve(undefined)
  }
  return readJsonBody(request, limits, expected)
}

export async function readBounded(request: Request, limits: BodyLimits): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array()
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(problems.bodyTimeout(Math.round(limits.timeoutMs / 1000))),
      limits.timeoutMs,
    )
  })
  try {
    // A declared length is already checked against the limit and enforced by the server's
    // framing, so the runtime's native read is safe; only chunked bodies are counted by hand.
    if (request.headers.has('content-length')) {
      return new Uint8Array(await Promise.race([request.arrayBuffer(), deadline]))
    }
    const bytes = await readChunked(request.body, limits.maxBytes, deadline)
    // Bun hands a chunked body over before it parses what follows the last chunk: a trailer it
    // refuses is answered 400 at the socket and aborts the request a tick later. That client was
    // told 400 and will retry, so nothing it sent may be acted on.
    await new Promise((resolve) => setTimeout(resolve, 0))
    if (request.signal.aborted) throw problems.bodyUnreadable()
    return bytes
  } finally {
    clearTimeout(timer)
  }
}

async function readChunked(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  deadline: Promise<never>,
): Promise<Uint8Array> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline])
      if (done) break
      size += value.byteLength
      if (size > maxBytes) throw problems.bodyTooLarge(maxBytes)
      chunks.push(value)
    }
  } catch (error) {
    reader.cancel().catch(() => {})
    throw error
  }
  const joined = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    joined.set(chunk, offset)
    offset += chunk.byteLength
  }
  return joined
}
