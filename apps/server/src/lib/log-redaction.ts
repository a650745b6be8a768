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

/**
 * A request URL as logs may show it: secret path segments and credential parameters replaced, and the
 * values of `secrets` wherever they appear, as written or URL-encoded (a webhook URL carried inside
 * another URL's parameter, as the simulator's settings are).
 */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  for (const secret of secrets) {
    for (const form of new Set([
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(encodeURIComponent(secret)),
    ]))
      url = url.replaceAll(form, REDACTED);
  }
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
 * The request as the request log records it (Fastify's fields), with the URL redacted (and the given
 * secrets' values wherever they appear). Installed on the process logger, so it applies to every route:
 * the API, the SMS simulator and the payment sandbox.
 */
export function requestSerializer(secrets: readonly string[]) {
  const known = secrets.filter((secret) => secret.length >= 8);
  return (request: FastifyRequest) => ({
    method: request.method,
    url: redactUrl(request.url, known),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  });
}
