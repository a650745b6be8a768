import { createHash, timingSafeEqual } from 'node:crypto';
import { signBody } from '@simcode/cryptomus-protocol';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { StandInLogger } from '../logger';
import type { FieldErrors } from './validation';

/**
 * Cryptomus's answer format (protocols.md D.3): `{state:0, result}` on success, `{state:1, message}` or,
 * for validation, HTTP 422 `{state:1, errors:{field:[rules]}}`. Clients tell success by the HTTP status
 * and `state` together, so no answer under the API root may leave either out.
 */
export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

export const ok = (result: unknown): ApiAnswer => ({ status: 200, body: { state: 0, result } });
export const failure = (status: number, message: string): ApiAnswer => ({
  status,
  body: { state: 1, message },
});
export const invalid = (errors: FieldErrors): ApiAnswer => ({ status: 422, body: { state: 1, errors } });

export const sendAnswer = (reply: FastifyReply, answer: ApiAnswer) =>
  reply.code(answer.status).send(answer.body);

/** A sandbox page, never cached: it shows state that changes with every click. */
export const sendHtml = (reply: FastifyReply, status: number, html: string) =>
  reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);

export function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  // Hashing first gives equal lengths, which timingSafeEqual needs, without revealing the real length.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * A JSON object body, or null. An empty body counts as `{}`, and so does `[]`: PHP's json_encode writes an
 * empty parameter array as a list, which is what the official PHP SDK sends for services and balance.
 */
export function parseJsonObject(rawBody: string): Record<string, unknown> | null {
  if (rawBody.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(rawBody);
    if (Array.isArray(parsed) && parsed.length === 0) return {};
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export const rawBodyOf = (request: FastifyRequest) => (typeof request.body === 'string' ? request.body : '');

export interface MerchantRequest {
  body: Record<string, unknown>;
  query: Record<string, unknown>;
  params: Record<string, string>;
}

export interface MerchantRoute {
  method: 'GET' | 'POST';
  /** Under the API root, e.g. `/v1/payment/info`. */
  path: string;
  /**
   * Cryptomus answers it without credentials (its documentation calls it with none); credentials a client
   * sends anyway are still checked, so a wrong key shows up here before it does anywhere else.
   */
  public?: boolean;
  handle(request: MerchantRequest): ApiAnswer | Promise<ApiAnswer>;
}

export interface MerchantApiOptions {
  merchantId: string;
  apiKey: string;
  routes: MerchantRoute[];
  /** Runs before every authorised request (the sandbox brings its invoices up to date). */
  beforeEach(): void;
  /** Fault injection: while true, every call answers 503 with an HTML page, as an outage does. */
  isDown(): boolean;
  logger: StandInLogger;
}

/**
 * The merchant API: the `merchant` header and `sign = md5(base64(raw body) + key)` checked on every route,
 * over the exact bytes received, so a body PHP wrote with `\/` for `/` is signed and verified as sent.
 * Unknown routes and failures answer in the envelope too: the official PHP SDK takes a non-200 answer
 * without `message` or `errors` for a success.
 */
export function merchantApiPlugin(options: MerchantApiOptions): FastifyPluginAsync {
  function refusal(route: MerchantRoute, request: FastifyRequest, rawBody: string): ApiAnswer | null {
    const { merchant, sign } = request.headers;
    if (route.public && merchant === undefined && sign === undefined) return null;
    if (merchant !== options.merchantId) return failure(401, 'Merchant not found');
    if (typeof sign !== 'string' || !sameSecret(sign.toLowerCase(), signBody(rawBody, options.apiKey))) {
      return failure(401, 'Invalid Sign.');
    }
    return null;
  }

  return async (app) => {
    for (const route of options.routes) {
      app.route({
        method: route.method,
        url: route.path,
        handler: async (request, reply) => {
          if (options.isDown()) {
            return reply
              .code(503)
              .type('text/html')
              .send('<html><body>503 Service Unavailable</body></html>');
          }
          const rawBody = rawBodyOf(request);
          const refused = refusal(route, request, rawBody);
          if (refused) return sendAnswer(reply, refused);
          const body = parseJsonObject(rawBody);
          if (!body) return sendAnswer(reply, failure(400, 'Invalid JSON body'));
          options.beforeEach();
          const answer = await route.handle({
            body,
            query: request.query as Record<string, unknown>,
            params: request.params as Record<string, string>,
          });
          return sendAnswer(reply, answer);
        },
      });
    }
    app.setNotFoundHandler((_request, reply) => sendAnswer(reply, failure(404, 'Route not found')));
    app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
      const status =
        error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) {
        options.logger.warn({ url: request.url, err: error }, 'payment sandbox request failed');
      }
      return sendAnswer(reply, failure(status, status === 500 ? 'Server error' : error.message));
    });
  };
}
