import { createConnection, createServer, type Server, type Socket } from 'node:net'

/**
 * A TCP proxy between the service and Postgres, so a scenario can cut every connection at once or
 * make Postgres vanish (nothing listening) and come back, without touching the real server.
 */
export class TcpProxy {
  private server: Server | undefined
  private readonly sockets = new Set<Socket>()
  port = 0

  constructor(private readonly target: { host: string; port: number }) {}

  /** Listens (on a free port the first time, the same port after `stop`). */
  async start(): Promise<number> {
    const server = createServer((client) => {
      const upstream = createConnection(this.target)
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on('close', () => this.sockets.delete(socket))
        socket.on('error', () => socket.destroy())
      }
      client.pipe(upstream)
      upstream.pipe(client)
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.port, '127.0.0.1', () => resolve())
    })
    const address = server.address()
    if (address && typeof address === 'object') this.port = address.port
    this.server = server
    return this.port
  }

  /** Drops every open connection, as a network cut or a Postgres restart would. */
  cutConnections(): void {
    for (const socket of this.sockets) socket.destroy()
  }

  /** Stops listening and drops every connection: from the service's side, Postgres is gone. */
  async stop(): Promise<void> {
    const server = this.server
    this.server = undefined
    this.cutConnections()
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
