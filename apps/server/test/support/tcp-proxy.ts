import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy to a real service (Redis, PostgreSQL) that a test can cut and restore, as an outage or a
 * network blip would: `cut()` stops listening and drops every open connection, `restore()` listens again on
 * the same port.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        const address = next.address();
        if (address && typeof address === 'object') port = address.port;
        server = next;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    async cut() {
      const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
      for (const socket of sockets) socket.destroy();
      await closing;
    },
    restore: listen,
    close() {
      return this.cut();
    },
  };
}
