import type { ClientAddress } from '../plugins/auth/index.ts'

interface RequestIpServer {
  requestIP?: (request: Request) => { address: string } | null
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
    return (server as RequestIpServer | null)?.requestIP?.(request)?.address ?? 'unknown'
  }
}
