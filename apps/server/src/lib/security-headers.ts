import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet would set, computed once. `@fastify/helmet` builds helmet's middleware again on
 * every request (re-parsing the Content-Security-Policy); these headers never change between requests.
 */
export function securityHeadersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  helmet(options)({} as never, recorder, () => {});
  return headers;
}

/**
 * JSON answers are read by scripts, never rendered as documents, so the document policies (what a page may
 * load, run or embed) mean nothing there; what matters is that they are not sniffed, framed, cached or
 * leaked through a referrer. A short set also keeps the polled answers small.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const MACHINE_PREFIXES = ['/api/', '/healthz', '/readyz', '/simulator/', '/sandbox/cryptomus/'];

export function installSecurityHeaders(
  app: FastifyInstance,
  pageOptions: HelmetOptions,
  httpsOnly: boolean,
): void {
  const pageHeaders = securityHeadersOf(pageOptions);
  const apiHeaders = httpsOnly
    ? { ...API_SECURITY_HEADERS, 'strict-transport-security': pageHeaders['strict-transport-security']! }
    : API_SECURITY_HEADERS;
  app.addHook('onRequest', (request, reply, done) => {
    const isMachineRequest =
      MACHINE_PREFIXES.some((prefix) => request.url.startsWith(prefix)) &&
      !request.url.startsWith('/api/docs');
    reply.headers(isMachineRequest ? apiHeaders : pageHeaders);
    done();
  });
}
