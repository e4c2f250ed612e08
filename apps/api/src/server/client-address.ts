/** Tells apart clients that send no valid key, for the per-address limit. */
export type ClientAddress = (request: Request, server: unknown) => string

interface RequestIpServer {
  requestIP?: (request: Request) => { address: string } | null
}

// Under Deno the peer address comes with the handler's arguments, not from a server object that
// Elysia could pass on; the serving code records it here, per request, for `clientAddressFrom`.
const remoteAddresses = new WeakMap<Request, string>()

/** Records the peer address of `request`, for runtimes whose server Elysia does not know. */
export function rememberRemoteAddress(request: Request, address: string): void {
  remoteAddresses.set(request, address)
}

/**
 * The client address for per-address limits. Behind a proxy, name the header it sets
 * (`CLIENT_IP_HEADER=x-forwarded-for`); its last entry is the one our proxy appended and the only
 * one a client cannot forge.
 */
export function clientAddressFrom(header: string | undefined): ClientAddress {
  return (request, server) => {
    if (header) {
      const last = request.headers.get(header)?.split(',').at(-1)?.trim()
      if (last) return last
    }
    return (
      (server as RequestIpServer | null)?.requestIP?.(request)?.address ??
      remoteAddresses.get(request) ??
      'unknown'
    )
  }
}
