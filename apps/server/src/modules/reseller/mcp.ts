import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { countryById } from '@simcode/contract';
import { protocolIds } from '@simcode/sms-activate-protocol';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { apiIdempotencyKeys } from '../../db/schema';
import { isUniqueViolation } from '../../lib/errors';
import type { AuthenticatedKey } from '../api-keys/service';
import type { HandlerApi } from './handler-api';

/** Longest a wait_for_code call holds the request open. */
const MAX_WAIT_SECONDS = 60;
const DEFAULT_WAIT_SECONDS = 30;

/** What an agent is told for each protocol refusal. */
const REFUSAL_TEXT: Readonly<Record<string, string>> = {
  NO_BALANCE: "Not enough balance, or one of this API key's spending caps is reached (see the key's log).",
  NO_NUMBERS: 'No numbers are available for this service and country right now.',
  BAD_SERVICE: 'Unknown service code.',
  BAD_COUNTRY: 'Unknown country.',
  NO_ACTIVATION: 'No such order for this account.',
  EARLY_CANCEL_DENIED: 'The provider does not allow cancelling during the first 2 minutes. Try again later.',
  BAD_STATUS: 'The order is not in a state that allows this.',
  WRONG_MAX_PRICE: 'The price is above max_price_usd; the payload is the current price.',
};

function result(value: unknown) {
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

function refused(answer: string) {
  const [token = answer, payload] = answer.split(/:(.*)/s);
  return {
    isError: true,
    content: [
      {
        type: 'text' as const,
        text: JSON.stringify({
          error: token,
          ...(payload ? { detail: payload } : {}),
          message: REFUSAL_TEXT[token] ?? token,
        }),
      },
    ],
  };
}

/**
 * The MCP server for AI agents: one stateless server per HTTP request, authenticated by an API key, whose
 * tools run the same protocol actions as handler_api.php (so caps, ownership and refunds are the same).
 */
function buildServer(ctx: AppContext, api: HandlerApi, key: AuthenticatedKey): McpServer {
  const server = new McpServer({ name: `${ctx.config.APP_NAME} numbers`, version: '1.0.0' });
  const call = async (action: string, params: Record<string, string | undefined>) =>
    (await api.answer(action, { key, params })).body;
  const orderId = z.number().int().positive().describe('The order id buy_number returned.');

  server.registerTool(
    'list_offers',
    {
      description:
        'Services and countries on sale with the price in US dollars and the numbers in stock. Delivery rates are not published.',
      inputSchema: {
        country: z
          .string()
          .regex(/^[A-Za-z]{2}$/)
          .optional()
          .describe('ISO 3166 alpha-2 code, such as GB.'),
        service: z.string().max(10).optional().describe('Service code, such as tg for Telegram.'),
      },
    },
    async ({ country, service }) => {
      const iso = country?.toUpperCase();
      const countries = ctx.catalog.countries().filter((entry) => !iso || entry.id === iso);
      const offers = countries.flatMap((entry) =>
        ctx.catalog
          .services(entry.id)
          .filter((offer) => !service || offer.service === service)
          .map((offer) => ({
            country: entry.id,
            country_name: entry.name,
            service: offer.service,
            service_name: offer.name,
            price_usd: offer.priceCents / 100,
            in_stock: offer.stock,
          })),
      );
      return result({ offers: offers.slice(0, 500), truncated: offers.length > 500 });
    },
  );

  server.registerTool(
    'buy_number',
    {
      description:
        "Buy a one-time number (charged to the balance, refunded if no SMS arrives in 20 minutes). Bound by the API key's caps. The same idempotency_key never buys twice.",
      inputSchema: {
        country: z
          .string()
          .regex(/^[A-Za-z]{2}$/)
          .describe('ISO 3166 alpha-2 code, such as GB.'),
        service: z.string().max(10).describe('Service code, such as tg.'),
        operator: z.string().max(40).optional(),
        max_price_usd: z.number().positive().optional(),
        idempotency_key: z.string().min(8).max(100).describe('A unique string per intended purchase.'),
      },
    },
    async ({ country, service, operator, max_price_usd, idempotency_key }) => {
      const db = ctx.database.db;
      const mine = and(
        eq(apiIdempotencyKeys.apiKeyId, key.id),
        eq(apiIdempotencyKeys.idempotencyKey, idempotency_key),
      );
      try {
        await db
          .insert(apiIdempotencyKeys)
          .values({ apiKeyId: key.id, idempotencyKey: idempotency_key, createdAt: ctx.clock.now() });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const [earlier] = await db.select().from(apiIdempotencyKeys).where(mine);
        if (!earlier?.activationId)
          return refused('IN_PROGRESS:a purchase with this idempotency_key is still running');
        const order = await ctx.activations.repository.findForUser(key.userId, earlier.activationId);
        return result({ order_id: earlier.activationId, phone_number: order?.phoneNumber, replayed: true });
      }
      const countryId = countryById(country.toUpperCase())
        ? protocolIds.countryOf(country.toUpperCase())
        : -1;
      const answer = await call('getNumberV2', {
        service: protocolIds.serviceOf(service),
        country: String(countryId),
        operator,
        maxPrice: max_price_usd?.toString(),
      });
      if (!answer.startsWith('{')) {
        await db.delete(apiIdempotencyKeys).where(and(mine, isNull(apiIdempotencyKeys.activationId)));
        return refused(answer);
      }
      const bought = JSON.parse(answer) as {
        activationId: string;
        phoneNumber: string;
        activationCost: string;
        activationEndTime: string;
      };
      await db
        .update(apiIdempotencyKeys)
        .set({ activationId: Number(bought.activationId) })
        .where(mine);
      return result({
        order_id: Number(bought.activationId),
        phone_number: bought.phoneNumber,
        price_usd: Number(bought.activationCost),
        expires_at: bought.activationEndTime,
      });
    },
  );

  server.registerTool(
    'wait_for_code',
    {
      description: `Wait up to timeout_seconds (at most ${MAX_WAIT_SECONDS}) for the order's next code; call again to keep waiting.`,
      inputSchema: {
        order_id: orderId,
        timeout_seconds: z.number().int().min(1).max(MAX_WAIT_SECONDS).optional(),
      },
    },
    async ({ order_id, timeout_seconds }, extra) => {
      const deadline = Date.now() + (timeout_seconds ?? DEFAULT_WAIT_SECONDS) * 1000;
      for (;;) {
        // Every change to the user's orders is an event; the status itself is read from our database.
        const changed = new Promise<void>((resolve) => {
          const stop = ctx.events.subscribe(key.userId, (event) => {
            if (event.type === 'numbers') {
              stop();
              resolve();
            }
          });
          const timer = setTimeout(
            () => {
              stop();
              resolve();
            },
            Math.max(0, deadline - Date.now()),
          );
          extra.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            stop();
            resolve();
          });
        });
        const status = await call('getStatus', { id: String(order_id) });
        if (status.startsWith('STATUS_OK:'))
          return result({ status: 'code_received', code: status.slice(10) });
        if (status === 'STATUS_CANCEL') return result({ status: 'canceled' });
        if (!status.startsWith('STATUS_WAIT')) return refused(status);
        if (Date.now() >= deadline || extra.signal.aborted) return result({ status: 'waiting' });
        await changed;
      }
    },
  );

  const setStatus = (name: string, description: string, status: string, done: string) =>
    server.registerTool(name, { description, inputSchema: { order_id: orderId } }, async ({ order_id }) => {
      const answer = await call('setStatus', { id: String(order_id), status });
      return answer === done ? result({ ok: true, order_id }) : refused(answer);
    });
  setStatus(
    'request_another_sms',
    'Ask for another SMS on an order that already received a code (free).',
    '3',
    'ACCESS_RETRY_GET',
  );
  setStatus(
    'cancel_order',
    'Cancel an order that received no SMS; its price returns to the balance.',
    '8',
    'ACCESS_CANCEL',
  );
  setStatus('finish_order', 'Mark an order that received its code as done.', '6', 'ACCESS_ACTIVATION');

  server.registerTool('get_balance', { description: 'The account balance in US dollars.' }, async () => {
    const answer = await call('getBalance', {});
    return answer.startsWith('ACCESS_BALANCE:')
      ? result({ balance_usd: Number(answer.slice(15)) })
      : refused(answer);
  });
  return server;
}

/** `/mcp`: the Model Context Protocol over streamable HTTP (stateless), authenticated by an API key. */
export function registerMcp(
  app: FastifyInstance,
  ctx: AppContext,
  api: HandlerApi,
  limits: preHandlerAsyncHookHandler[],
) {
  const unauthorized = (reply: FastifyReply) =>
    reply
      .code(401)
      .header('www-authenticate', 'Bearer')
      .send({
        jsonrpc: '2.0',
        error: { code: -32001, message: 'A valid API key is required (Authorization: Bearer <key>).' },
        id: null,
      });

  async function checkKey(request: FastifyRequest, reply: FastifyReply) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const header = request.headers['x-api-key'];
    const raw = bearer ?? (typeof header === 'string' ? header.trim() : undefined);
    const key = raw ? await ctx.apiKeys.authenticate(raw) : null;
    if (!key?.allows(request.ip)) return unauthorized(reply);
    request.resellerKey = key;
  }

  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: '/mcp',
    logLevel: 'warn',
    schema: { hide: true },
    onRequest: checkKey,
    preHandler: limits,
    errorHandler: (error, _request, reply) => {
      const status = (error as { statusCode?: number }).statusCode === 429 ? 429 : 500;
      if (status === 500) ctx.log.error({ err: error }, 'MCP request failed');
      return reply.code(status).send({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: status === 429 ? `Too many requests: ${error.message}` : 'Internal error',
        },
        id: null,
      });
    },
    handler: async (request, reply) => {
      if (request.method !== 'POST')
        return reply
          .code(405)
          .header('allow', 'POST')
          .send({
            jsonrpc: '2.0',
            error: { code: -32000, message: 'Method not allowed: this server is stateless.' },
            id: null,
          });
      const server = buildServer(ctx, api, request.resellerKey!);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      reply.hijack();
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
}
