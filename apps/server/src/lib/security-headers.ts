import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
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

const MACHINE_PREFIXES = [
  '/api/',
  '/healthz',
  '/readyz',
  // The SMS-Activate protocol in both styles (modules/reseller/routes.ts) and the MCP server: bots poll
  // them, and the pages' whole policy was most of a getStatus answer's bytes.
  '/stubs/',
  '/hero/stubs/',
  '/mcp',
  '/simulator/',
  '/sandbox/cryptomus/',
  '/sandbox/nowpayments/v1/',
];

/**
 * Sets the answer's security headers, the API's short set or the pages' whole set by the request's path
 * (called by the request hook of app/build-app.ts).
 */
export function securityHeaders(
  pageOptions: HelmetOptions,
  httpsOnly: boolean,
): (request: FastifyRequest, reply: FastifyReply) => void {
  const pageHeaders = securityHeadersOf(pageOptions);
  const apiHeaders = httpsOnly
    ? { ...API_SECURITY_HEADERS, 'strict-transport-security': pageHeaders['strict-transport-security']! }
    : API_SECURITY_HEADERS;
  return (request, reply) => {
    const isMachineRequest =
      MACHINE_PREFIXES.some((prefix) => request.url.startsWith(prefix)) &&
      !request.url.startsWith('/api/docs');
    reply.headers(isMachineRequest ? apiHeaders : pageHeaders);
  };
}
