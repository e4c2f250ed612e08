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

/** A client for the API at `base` (keep-alive, as a dashboard polling it would be). */
export function readClient(base: string, key: string): ReadClient {
  const headers = { authorization: `Bearer ${key}` }
  return {
    async get(path) {
      const started = performance.now()
      const response = await fetch(`${base}${path}`, { headers })
      const text = await response.text()
      const ms = performance.now() - started
      // A timing of an error page says nothing about the endpoint.
      if (response.status !== 200)
        throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 500)}`)
      return { ms, bytes: Buffer.byteLength(text), body: JSON.parse(text) }
    },
  }
}
