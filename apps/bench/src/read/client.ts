/** One answer of the API, timed from before the request to the last byte of the body. */
export interface TimedAnswer {
  ms: number
  bytes: number
  body: unknown
}

/** A GET against the API with the bench key; `get` fails loudly on anything but a 200. */
export interface ReadClient {
  get(path: string): Promise<TimedAnswer>
}

/**
 * A client for the API at `base` (keep-alive, as a dashboard polling it would be). The
 * dashboard's pages (`/ui…`) are read as a signed-in person reads them: with the session cookie
 * of one sign-in with the same key, their body as text.
 */
export function readClient(base: string, key: string): ReadClient {
  const headers = { authorization: `Bearer ${key}` }
  let session: Promise<string> | undefined
  const signIn = async () => {
    const response = await fetch(`${base}/ui/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key, next: '/ui' }),
      redirect: 'manual',
    })
    const cookie = response.headers.get('set-cookie')?.split(';')[0]
    if (response.status !== 303 || !cookie) throw new Error(`sign-in answered ${response.status}`)
    return cookie
  }
  return {
    async get(path) {
      const page = path.startsWith('/ui')
      if (page && !session) session = signIn()
      const cookie = page ? await session : undefined
      const started = performance.now()
      const response = await fetch(`${base}${path}`, {
        headers: cookie ? { cookie } : headers,
        redirect: 'manual',
      })
      const text = await response.text()
      const ms = performance.now() - started
      // A timing of an error page says nothing about the endpoint.
      if (response.status !== 200)
        throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 500)}`)
      return { ms, bytes: Buffer.byteLength(text), body: page ? text : JSON.parse(text) }
    },
  }
}
