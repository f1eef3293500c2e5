// A TCP relay between the service and PostgreSQL that a test can cut and restore, to play a
// database outage without touching the database server itself.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * How the relay behaves while cut.
 * - refuse: piped connections are reset and the port stops listening, so a new connection fails
 *   at once (ECONNREFUSED): the server is down.
 * - blackhole: piped connections are reset; new ones are accepted and never answered.
 * - freeze: piped connections stay open but carry nothing more, and new ones are accepted and
 *   never answered: a network partition, where only timeouts tell.
 * restore() resets whatever the cut left open and forwards new connections again.
 */
export type CutMode = 'refuse' | 'blackhole' | 'freeze';

export interface TcpRelay {
  /** The port the relay listens on (kept across cuts). */
  readonly port: number;
  /** url with its host and port replaced by the relay's. */
  rewrite(url: string): string;
  cut(mode: CutMode): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const piped = new Set<Socket>();
  const held = new Set<Socket>();
  let mode: CutMode | null = null;

  const onConnection = (client: Socket) => {
    if (mode === 'blackhole' || mode === 'freeze') {
      held.add(client);
      client.on('error', () => undefined);
      client.on('close', () => held.delete(client));
      return;
    }
    const upstream = createConnection(target);
    for (const socket of [client, upstream]) {
      piped.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        piped.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  };

  let server = createServer(onConnection);
  const port = await listen(server, 0);

  const destroyAll = (sockets: Set<Socket>) => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };

  return {
    port,
    rewrite(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    async cut(next) {
      mode = next;
      if (next === 'freeze') {
        for (const socket of piped) {
          socket.unpipe();
          socket.pause();
        }
      } else {
        destroyAll(piped);
      }
      if (next === 'refuse') destroyAll(held);
      if (next === 'refuse' && server.listening) await closeServer(server);
    },
    async restore() {
      mode = null;
      destroyAll(held);
      destroyAll(piped);
      if (!server.listening) {
        server = createServer(onConnection);
        await listen(server, port);
      }
    },
    async close() {
      mode = 'refuse';
      destroyAll(piped);
      destroyAll(held);
      if (server.listening) await closeServer(server);
    },
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
