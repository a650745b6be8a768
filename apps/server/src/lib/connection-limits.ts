import type { Server } from 'node:http';
import type { Config } from '../config';

/** How often Node looks for requests past their time: a fraction of the shortest limit, at most 5 seconds. */
function checkingIntervalMs(config: Config): number {
  return Math.max(50, Math.min(5_000, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 2)));
}

/**
 * Options of the HTTP server that bound what one slow client can hold: a request (headers and body) must
 * arrive within its time or is answered 408 and closed, idle keep-alive connections close, and Node checks
 * often enough for the limits to mean what they say.
 */
export function httpServerOptions(config: Config) {
  return {
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    http: {
      // A request without Host is refused by the error handler, in the API's shape (not Node's empty 400).
      requireHostHeader: false,
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: checkingIntervalMs(config),
    },
  };
}

/**
 * Caps open connections in all and per address. The per-address cap stops one client (a slow-loris) from
 * holding every socket; behind a trusted proxy every connection comes from the proxy, so it is left to it.
 */
export function capConnections(server: Server, config: Config): void {
  server.maxConnections = config.HTTP_MAX_CONNECTIONS;
  if (config.TRUST_PROXY !== false) return;
  const maxPerAddress = config.HTTP_MAX_CONNECTIONS_PER_ADDRESS;
  const openByAddress = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const open = (openByAddress.get(address) ?? 0) + 1;
    if (open > maxPerAddress) {
      socket.destroy();
      return;
    }
    openByAddress.set(address, open);
    socket.once('close', () => {
      const left = (openByAddress.get(address) ?? 1) - 1;
      if (left > 0) openByAddress.set(address, left);
      else openByAddress.delete(address);
    });
  });
}
