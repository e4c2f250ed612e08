// Compressing the dashboard's text for the browser: brotli or gzip, as it accepts.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

// Text worth compressing; images and CSV are left alone (CSV streams, and is downloaded once).
const COMPRESSIBLE = /^(text\/html|text\/css|text\/javascript|image\/svg\+xml)/
// Below this, the headers cost more than the bytes saved.
const MIN_COMPRESSED_BYTES = 1024

/** The encoding to answer a request in: brotli, else gzip, else none. */
export function encodingFor(request: Request): 'br' | 'gzip' | undefined {
  const accepted = (request.headers.get('accept-encoding') ?? '')
    .toLowerCase()
    .split(',')
    .map((part) => part.trim())
    .filter((part) => !/;\s*q=0(\.0*)?$/.test(part))
    .map((part) => part.split(';')[0])
  if (accepted.includes('br')) return 'br'
  if (accepted.includes('gzip')) return 'gzip'
  return undefined
}

/** `bytes` in `encoding`: brotli at quality 4 (about gzip's speed, a better ratio), gzip 6. */
export function compress(bytes: Uint8Array, encoding: 'br' | 'gzip'): Uint8Array<ArrayBuffer> {
  const packed =
    encoding === 'br'
      ? brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
      : gzipSync(bytes)
  return new Uint8Array(packed)
}

/**
 * The response compressed as the browser accepts (`Accept-Encoding`): HTML, CSS, JavaScript and
 * SVG of a kilobyte or more (the dashboard's pages, `/docs`); JSON, CSV and the rest pass
 * untouched. Every such answer varies by that header, compressed or not.
 */
export async function compressed(request: Request, response: Response): Promise<Response> {
  const type = response.headers.get('content-type') ?? ''
  const decided =
    response.headers.has('content-encoding') ||
    /accept-encoding/i.test(response.headers.get('vary') ?? '')
  if (!COMPRESSIBLE.test(type) || decided || !response.body) return response
  const headers = new Headers(response.headers)
  headers.append('vary', 'accept-encoding')
  const encoding = encodingFor(request)
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (!encoding || bytes.length < MIN_COMPRESSED_BYTES) {
    return new Response(bytes, { status: response.status, headers })
  }
  headers.set('content-encoding', encoding)
  return new Response(compress(bytes, encoding), { status: response.status, headers })
}
