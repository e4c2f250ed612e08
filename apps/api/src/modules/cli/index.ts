import { Elysia } from 'elysia'
import { type CliBundle, loadCliBundle } from './service.ts'

/** Where the CLI is served, and its checksum beside it (the `sha256sum` format). */
export const CLI_PATH = '/cli/shiplog.mjs'
export const CLI_SHA256_PATH = `${CLI_PATH}.sha256`

/**
 * `GET /cli/shiplog.mjs` (the `shiplog` CLI as one file: `node shiplog.mjs notify …`) and
 * `GET /cli/shiplog.mjs.sha256`. Public, like the docs: the CLI holds no secret, and a pipeline
 * fetches it before it uses its key. The URL stays the same across versions, so caches must
 * revalidate: the ETag is the checksum.
 */
export function cliRoutes(bundle: CliBundle = loadCliBundle()) {
  const etag = `"${bundle.sha256}"`
  const headers = (type: string) => ({
    'content-type': type,
    'cache-control': 'no-cache',
    etag,
    'x-content-type-options': 'nosniff',
  })
  const answer = (request: Request, body: Uint8Array<ArrayBuffer> | string, type: string) =>
    request.headers.get('if-none-match') === etag
      ? new Response(null, { status: 304, headers: headers(type) })
      : new Response(body, { headers: headers(type) })
  const checksum = `${bundle.sha256}  shiplog.mjs\n`
  return new Elysia()
    .get(CLI_PATH, ({ request }) => answer(request, bundle.body, 'text/javascript; charset=utf-8'))
    .get(CLI_SHA256_PATH, ({ request }) => answer(request, checksum, 'text/plain; charset=utf-8'))
}
