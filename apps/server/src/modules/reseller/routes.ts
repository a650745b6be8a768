import {
  bannedUntil,
  type Params,
  ProtocolRefusal,
  type ProtocolReply,
  type ResponseStyle,
  renderRefusal,
} from '@simcode/sms-activate-protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createKeyCheck } from '../api-keys/key-check';
import type { ResellerDeps } from './deps';
import { createHandlerApi, refusalOf } from './handler-api';
import { registerMcp } from './mcp';

/**
 * Where the protocol is served, in each style: SMS-Activate's (HTTP 200 and text tokens) at its own path,
 * Hero-SMS's (HTTP statuses and JSON errors, 204 for finishActivation and cancelActivation) under `/hero`,
 * for clients written against Hero's documented answers.
 */
export const PROTOCOL_PATHS: Readonly<Record<ResponseStyle, string>> = {
  classic: '/stubs/handler_api.php',
  hero: '/hero/stubs/handler_api.php',
};

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

function send(reply: FastifyReply, answer: ProtocolReply) {
  reply.code(answer.status).header('cache-control', 'no-store');
  if (answer.headers) reply.headers(answer.headers);
  if (answer.contentType) reply.type(answer.contentType);
  return reply.send(answer.status === 204 ? undefined : answer.body);
}

/** A malformed body, answered as the protocol answers a call it cannot read (BAD_ACTION). */
const unreadableBody = () => Object.assign(new Error('The body cannot be read.'), { statusCode: 400 });

/** The text fields of a `multipart/form-data` body (files are no parameters of the protocol). */
async function formFields(contentType: string | undefined, body: Buffer): Promise<Record<string, string>> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': contentType ?? '' },
    }).formData();
  } catch {
    throw unreadableBody();
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === 'string') fields[name] = value;
  return fields;
}

/**
 * The SMS-Activate protocol at PROTOCOL_PATHS, GET or POST (query, form, multipart or JSON body), answering
 * as SMS-Activate or Hero-SMS does; every failure is one of the protocol's refusals, never an error page.
 */
export async function resellerRoutes(app: FastifyInstance, deps: ResellerDeps) {
  const { apiKeys, clock, log } = deps;
  const api = createHandlerApi(deps);
  const nowMs = () => clock.now().getTime();
  // Only here: the protocol's clients post forms, as PHP reads them; the rest of the API takes JSON alone.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
    formFields(request.headers['content-type'], body as Buffer).then(
      (fields) => done(null, fields),
      (error: Error) => done(error),
    );
  });

  const actionOf = (request: FastifyRequest) => paramsOf(request).action ?? '';
  // Past a limit the protocol's own "blocked until" answer, with the time the window opens again; MCP, which
  // shares the limits, reads the HTTP status.
  const rateLimited = (ttlMs: number) => Object.assign(bannedUntil(nowMs() + ttlMs), { statusCode: 429 });
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
  for (const [style, url] of Object.entries(PROTOCOL_PATHS) as [ResponseStyle, string][]) {
    const refuse = (reply: FastifyReply, refusal: ProtocolRefusal, action: string) =>
      send(reply, renderRefusal(refusal, action, style, nowMs()));
    app.route({
      method: ['GET', 'POST'],
      url,
      // The key travels in the URL: the request lines of this route are not logged.
      logLevel: 'warn',
      schema: { hide: true },
      preHandler: [
        async (request, reply) => {
          const params = paramsOf(request);
          const checked = await keyOf(request, params.api_key?.trim());
          if (typeof checked === 'string')
            return refuse(reply, new ProtocolRefusal('BAD_KEY'), params.action ?? '');
        },
        ...limits,
      ],
      errorHandler: (error, request, reply) => {
        const action = actionOf(request);
        // A rate limit's BANNED: HTTP 200 and the token (classic), 403 and Hero's JSON, Retry-After in both.
        if (error instanceof ProtocolRefusal) return refuse(reply, error, action);
        const status = (error as { statusCode?: number }).statusCode ?? 500;
        const refusal =
          status >= 400 && status < 500 ? new ProtocolRefusal('BAD_ACTION') : refusalOf(error, action);
        if (status >= 500) log.error({ err: error, action }, 'reseller API call failed');
        return refuse(reply, refusal, action);
      },
      handler: async (request, reply) => {
        const params: Params = paramsOf(request);
        const action = params.action?.trim() ?? '';
        return send(reply, await api.answer(action, { key: request.resellerKey!, params, style }));
      },
    });
  }

  registerMcp(app, deps, keyOf, limits, deps.waits);
}
