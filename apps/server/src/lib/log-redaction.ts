import type { FastifyRequest } from 'fastify';

/** The webhook's secret path segment is the whole of its protection: logs show where it was, not what. */
const SECRET_PATH_SEGMENT = /^(\/api\/upstream\/sms\/)[^/?#]*/;
/** Query parameters that carry credentials: the SMS-Activate protocol's `api_key` and the usual others. */
const SECRET_QUERY_PARAMETERS = new Set(['api_key', 'apikey', 'key', 'token', 'access_token', 'secret']);
export const REDACTED = '[redacted]';

function parameterName(pair: string): string {
  const raw = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replaceAll('+', ' ')).trim().toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** A request URL as logs may show it: secret path segments and credential parameters replaced. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
  const redactedPath = pathname.replace(SECRET_PATH_SEGMENT, `$1${REDACTED}`);
  if (queryStart === -1) return redactedPath;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) =>
      SECRET_QUERY_PARAMETERS.has(parameterName(pair)) ? `${pair.split('=', 1)[0]}=${REDACTED}` : pair,
    )
    .join('&');
  return `${redactedPath}?${query}`;
}

/**
 * The request as the request log records it (Fastify's fields), with the URL redacted. Installed on the
 * process logger, so it applies to every route: the API, the SMS simulator and the payment sandbox.
 */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
