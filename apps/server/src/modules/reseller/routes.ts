import {
  bannedDate,
  type Params,
  ProtocolRefusal,
  type ProtocolReply,
  TEXT_TYPE,
} from '@simcode/sms-activate-protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createKeyCheck } from '../api-keys/key-check';
import type { ResellerDeps } from './deps';
import { createHandlerApi, refusalOf, render } from './handler-api';
import { registerMcp } from './mcp';

/** Everything a call sends, from the query string and a form or JSON body alike, as strings. */
function paramsOf(request: FastifyRequest): Record<string, string> {
  const params: Record<string, string> = {};
  for (const source of [request.query, request.body]) {
    if (!source || typeof source !== 'object') continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>))
      if (typeof value === 'string' || typeof value === 'number') params[name] = String(value);
  }
  return params;
}

function send(reply: FastifyReply, answer: ProtocolReply, status = answer.status) {
  reply.code(status).header('cache-control', 'no-store');
  if (answer.contentType) reply.type(answer.contentType);
  return reply.send(answer.body);
}

/**
 * The SMS-Activate protocol at `/stubs/handler_api.php`, GET or POST (query, form or JSON body), answering
 * as SMS-Activate does; every failure is one of its tokens, never an HTTP error page.
 */
export async function resellerRoutes(app: FastifyInstance, deps: ResellerDeps) {
  const { apiKeys, clock, log } = deps;
  const api = createHandlerApi(deps);
  const nowMs = () => clock.now().getTime();
  // Only here: the protocol's clients post forms; the rest of the API takes JSON alone.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  const actionOf = (request: FastifyRequest) => paramsOf(request).action ?? '';
  // Past a limit the protocol's own "blocked until" answer, with the time the window opens again.
  const rateLimited = (ttlMs: number) =>
    Object.assign(new ProtocolRefusal('BANNED', bannedDate(nowMs() + ttlMs)), { statusCode: 429 });
  const limits = [
    app.rateLimit({
      max: deps.callsPerMinute.perKey,
      timeWindow: 60_000,
      keyGenerator: (request) => `api-key:${request.resellerKey?.id}`,
      errorResponseBuilder: (_request, context) => rateLimited(context.ttl),
    }),
    app.rateLimit({
      max: deps.callsPerMinute.perUser,
      timeWindow: 60_000,
      keyGenerator: (request) => `api-user:${request.resellerKey?.userId}`,
      errorResponseBuilder: (_request, context) => rateLimited(context.ttl),
    }),
  ];

  const keyOf = createKeyCheck(app, apiKeys, deps.callsPerMinute.unknownKeyLookups);
  async function checkKey(request: FastifyRequest, reply: FastifyReply) {
    const params = paramsOf(request);
    const checked = await keyOf(request, params.api_key?.trim());
    if (typeof checked === 'string')
      return send(reply, render(new ProtocolRefusal('BAD_KEY'), params.action ?? '', nowMs()));
  }

  app.route({
    method: ['GET', 'POST'],
    url: '/stubs/handler_api.php',
    // The key travels in the URL: the request lines of this route are not logged.
    logLevel: 'warn',
    schema: { hide: true },
    preHandler: [checkKey, ...limits],
    errorHandler: (error, request, reply) => {
      const action = actionOf(request);
      if (error instanceof ProtocolRefusal && (error as { statusCode?: number }).statusCode === 429)
        return send(reply, { status: 429, contentType: TEXT_TYPE, body: error.message });
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      const refusal =
        status >= 400 && status < 500 ? new ProtocolRefusal('BAD_ACTION') : refusalOf(error, action);
      if (status >= 500) log.error({ err: error, action }, 'reseller API call failed');
      return send(reply, render(refusal, action, nowMs()));
    },
    handler: async (request, reply) => {
      const params: Params = paramsOf(request);
      const answer = await api.answer(params.action?.trim() ?? '', { key: request.resellerKey!, params });
      return send(reply, answer);
    },
  });

  registerMcp(app, deps, keyOf, limits, deps.waits);
}
