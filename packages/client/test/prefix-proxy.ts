/**
 * A reverse proxy on 127.0.0.1 that serves `target` under a path prefix (`/shiplog/…` reaches
 * `/…`), as an Ingress rewriting paths does, and answers anything else 404. It passes answers
 * through unchanged, `Location` headers included, as such proxies commonly do.
 */
export function prefixProxy(target: string, prefix = '/shiplog/') {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url)
      if (!url.pathname.startsWith(prefix)) return new Response('no such path\n', { status: 404 })
      const upstream = `${target.replace(/\/$/, '')}${url.pathname.slice(prefix.length - 1)}${url.search}`
      return fetch(upstream, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
      })
    },
  })
  return {
    /** The proxied base URL, without a trailing slash, as users write it. */
    url: `http://127.0.0.1:${server.port}${prefix.replace(/\/$/, '')}`,
    stop: () => server.stop(true),
  }
}
