import { createHash } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { findCountry, findService } from '@simcode/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { type Activation, apiIdempotencyKeys } from '../../db/schema';
import { AppError, isUniqueViolation } from '../../lib/errors';
import { type AuthenticatedKey, KeyCapError } from '../api-keys/service';
import type { WaitSlots } from '../api-keys/wait-slots';
import { ANY_OPERATOR } from '../catalog/service';
import { clearsDeliveryFloor, knownDeliveryRate, withDeliveryFloor } from '../orders/hold';
import type { ResellerDeps } from './deps';
import { refusalOf } from './handler-api';

/** Longest a wait_for_code call holds the request open. */
const MAX_WAIT_SECONDS = 60;
const DEFAULT_WAIT_SECONDS = 30;
/** Offers one list_offers answer holds at most. */
const MAX_OFFERS = 500;

/** What an agent is told for each refusal, by the protocol token it carries. */
const REFUSAL_TEXT: Readonly<Record<string, string>> = {
  NO_BALANCE: "Not enough balance, or one of this API key's spending caps is reached (see the key's log).",
  NO_NUMBERS: 'No numbers are available for this service and country right now.',
  BAD_SERVICE: 'Unknown service: name it as people do ("Telegram") or by its code ("tg").',
  BAD_COUNTRY: 'Unknown country: name it as people do ("Israel") or by its ISO code ("IL").',
  NO_ACTIVATION: 'No such order for this account.',
  EARLY_CANCEL_DENIED: 'The provider does not allow cancelling during the first 2 minutes. Try again later.',
  BAD_STATUS: 'The order is not in a state that allows this.',
  WRONG_MAX_PRICE: 'The price is above max_price_usd; the payload is the current price.',
  IDEMPOTENCY_KEY_REUSED: 'This idempotency_key was used for a purchase with other arguments.',
  IN_PROGRESS: 'A purchase with this idempotency_key is still running; call again in a moment.',
  TOO_MANY_WAITS: 'This API key already has the most wait_for_code calls open at once; wait on fewer orders.',
  price_above_guard: "The price is above this API key's price ceiling.",
  offer_below_guard:
    "The delivery rate of every country named is below min_delivery_rate (or the API key's minimum).",
};
/** A purchase guard's refusal keeps the error code of the JSON API: the protocol's NO_NUMBERS would hide why. */
const GUARD_CODES: ReadonlySet<string> = new Set(['price_above_guard', 'offer_below_guard']);

/** A tool's refusal: the protocol's token (as SMS-Activate clients know them), a sentence, and a payload. */
class ToolRefusal extends Error {
  constructor(
    readonly token: string,
    readonly detail?: string,
  ) {
    super(token);
  }
}

function result<T extends Record<string, unknown>>(value: T) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(value) }], structuredContent: value };
}

function refused(token: string, detail?: string) {
  return {
    isError: true,
    content: [
      {
        type: 'text' as const,
        text: JSON.stringify({
          error: token,
          ...(detail ? { detail } : {}),
          message: REFUSAL_TEXT[token] ?? token,
        }),
      },
    ],
  };
}

const orderIdField = z.number().int().positive().describe('The order id buy_number returned.');
const countryField = z
  .string()
  .min(2)
  .max(60)
  .describe('A country as people write it ("Israel", "United Kingdom", "UK") or its ISO code ("IL").');
const serviceField = z
  .string()
  .min(1)
  .max(60)
  .describe('A service as people write it ("Telegram", "Gmail", "X") or its code ("tg").');

const minDeliveryRateField = z
  .number()
  .min(0)
  .max(1)
  .describe(
    'The lowest delivery rate to accept (0 to 1); offers whose known rate is below it are left out (buy: skipped, refused when all are).',
  );

const offerSchema = z.object({
  country: z.string().describe('ISO 3166 alpha-2 code.'),
  country_name: z.string(),
  service: z.string().describe('Service code.'),
  service_name: z.string(),
  price_usd: z.number(),
  in_stock: z.number().int(),
  delivery_rate: z
    .number()
    .nullable()
    .describe('Share of SimCode orders of the last 7 days that got a code; null while too few settled.'),
  median_seconds_to_code: z.number().int().nullable(),
  orders_counted: z.number().int(),
});

const orderSchema = {
  order_id: z.number().int(),
  phone_number: z.string().nullable(),
  country: z.string(),
  service: z.string(),
  price_usd: z.number(),
  expires_at: z.string(),
};

function presentOrder(order: Activation) {
  return {
    order_id: order.id,
    phone_number: order.phoneNumber,
    country: order.countryId,
    service: order.service,
    price_usd: order.priceCents / 100,
    expires_at: order.expiresAt.toISOString(),
  };
}

function countryOf(text: string): string {
  const country = findCountry(text);
  if (!country) throw new ToolRefusal('BAD_COUNTRY', text);
  return country.id;
}

function serviceOf(text: string): string {
  const service = findService(text);
  if (!service) throw new ToolRefusal('BAD_SERVICE', text);
  return service.code;
}

/** The tool's own refusal, or a domain error as the protocol's token; the key's log hears of its caps. */
async function refusalFor(deps: ResellerDeps, error: unknown, action: string) {
  if (error instanceof ToolRefusal) return refused(error.token, error.detail);
  if (error instanceof KeyCapError)
    await deps.apiKeys.note(error.apiKeyId, 'cap_refused', `MCP ${action}: ${error.detail}`).catch(() => {});
  else if (!(error instanceof AppError)) deps.log.error({ err: error, action }, 'MCP tool failed');
  if (error instanceof AppError && GUARD_CODES.has(error.code)) return refused(error.code, error.message);
  const refusal = refusalOf(error, action);
  return refused(refusal.token, refusal.payload);
}

/**
 * The MCP server for AI agents, one per request (stateless), over the domain's own operations with the key's
 * caps and guards: the same purchase, refunds and ledger as every other path. Tools take countries and
 * services as people write them and answer structured content that follows their output schemas.
 */
export function buildMcpServer(deps: ResellerDeps, key: AuthenticatedKey, waits: WaitSlots): McpServer {
  const { activations, catalog } = deps;
  const server = new McpServer({ name: `${deps.appName} numbers`, version: '2.0.0' });
  const run =
    <Args, Out extends Record<string, unknown>>(action: string, body: (args: Args) => Promise<Out>) =>
    async (args: Args) => {
      try {
        return result(await body(args));
      } catch (error) {
        return refusalFor(deps, error, action);
      }
    };

  async function ownOrder(orderId: number): Promise<Activation> {
    const order = await activations.find(key.userId, orderId);
    if (!order || order.status === 'failed') throw new ToolRefusal('NO_ACTIVATION');
    return order;
  }

  server.registerTool(
    'list_offers',
    {
      title: 'List offers',
      description:
        'Services and countries on sale: price in US dollars, numbers in stock, and how often SimCode orders of the offer got a code in the last 7 days.',
      inputSchema: {
        country: countryField.optional(),
        service: serviceField.optional(),
        min_delivery_rate: minDeliveryRateField.optional(),
      },
      outputSchema: { offers: z.array(offerSchema), truncated: z.boolean() },
      annotations: { readOnlyHint: true },
    },
    run(
      'getPrices',
      async ({
        country,
        service,
        min_delivery_rate,
      }: {
        country?: string;
        service?: string;
        min_delivery_rate?: number;
      }) => {
        const countryId = country === undefined ? undefined : countryOf(country);
        const code = service === undefined ? undefined : serviceOf(service);
        const offers = catalog
          .countries()
          .filter((entry) => !countryId || entry.id === countryId)
          .flatMap((entry) =>
            catalog
              .services(entry.id)
              .filter((offer) => !code || offer.service === code)
              .filter((offer) =>
                clearsDeliveryFloor(catalog.deliveryOf(offer.service, entry.id), min_delivery_rate),
              )
              .map((offer) => {
                const delivery = catalog.deliveryOf(offer.service, entry.id);
                return {
                  country: entry.id,
                  country_name: entry.name,
                  service: offer.service,
                  service_name: offer.name,
                  price_usd: offer.priceCents / 100,
                  in_stock: offer.stock,
                  delivery_rate: knownDeliveryRate(delivery),
                  median_seconds_to_code: delivery?.median_seconds ?? null,
                  orders_counted: delivery?.orders ?? 0,
                };
              }),
          );
        return { offers: offers.slice(0, MAX_OFFERS), truncated: offers.length > MAX_OFFERS };
      },
    ),
  );

  server.registerTool(
    'buy_number',
    {
      title: 'Buy a number',
      description:
        "Buy a one-time number, charged to the balance and refunded if no SMS arrives in 20 minutes; bound by the API key's caps and guards. Name one country, or several in order of preference (each tried in turn at most at its current price). The same idempotency_key never buys twice: calling again answers the first purchase.",
      inputSchema: {
        service: serviceField,
        country: countryField.optional(),
        countries: z
          .array(countryField)
          .min(1)
          .max(10)
          .optional()
          .describe('Countries in order of preference.'),
        operator: z.string().max(40).optional(),
        max_price_usd: z.number().positive().optional(),
        min_delivery_rate: minDeliveryRateField.optional(),
        idempotency_key: z.string().min(8).max(100).describe('A unique string per intended purchase.'),
      },
      outputSchema: { ...orderSchema, replayed: z.boolean() },
    },
    run(
      'getNumberV2',
      async (args: {
        service: string;
        country?: string;
        countries?: string[];
        operator?: string;
        max_price_usd?: number;
        min_delivery_rate?: number;
        idempotency_key: string;
      }) => {
        const service = serviceOf(args.service);
        const wanted = args.countries ?? (args.country === undefined ? [] : [args.country]);
        if (wanted.length === 0) throw new ToolRefusal('BAD_COUNTRY', 'name a country or countries');
        const countryIds = wanted.map(countryOf);
        const requestHash = createHash('sha256')
          .update(
            JSON.stringify([
              service,
              countryIds,
              args.operator ?? null,
              args.max_price_usd ?? null,
              args.min_delivery_rate ?? null,
            ]),
          )
          .digest('hex');
        const mine = and(
          eq(apiIdempotencyKeys.apiKeyId, key.id),
          eq(apiIdempotencyKeys.idempotencyKey, args.idempotency_key),
        );
        try {
          await deps.db.insert(apiIdempotencyKeys).values({
            apiKeyId: key.id,
            idempotencyKey: args.idempotency_key,
            requestHash,
            createdAt: deps.clock.now(),
          });
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          const [earlier] = await deps.db.select().from(apiIdempotencyKeys).where(mine);
          if (earlier?.requestHash && earlier.requestHash !== requestHash)
            throw new ToolRefusal('IDEMPOTENCY_KEY_REUSED');
          if (!earlier?.activationId) throw new ToolRefusal('IN_PROGRESS');
          return { ...presentOrder(await ownOrder(earlier.activationId)), replayed: true };
        }
        try {
          const maxPriceCents =
            args.max_price_usd === undefined ? undefined : Math.round(args.max_price_usd * 100);
          const order = await activations.buyFirstOf(
            key.userId,
            countryIds.map((countryId) => ({
              countryId,
              operator: args.operator?.trim().toLowerCase() || ANY_OPERATOR,
              service,
              shownPriceCents: maxPriceCents,
            })),
            withDeliveryFloor(deps.apiKeys.spendThrough(key), args.min_delivery_rate),
          );
          await deps.db.update(apiIdempotencyKeys).set({ activationId: order.id }).where(mine);
          return { ...presentOrder(order), replayed: false };
        } catch (error) {
          // Nothing was bought: the key may be used again for the same purchase.
          await deps.db.delete(apiIdempotencyKeys).where(and(mine, isNull(apiIdempotencyKeys.activationId)));
          throw error;
        }
      },
    ),
  );

  server.registerTool(
    'wait_for_code',
    {
      title: 'Wait for the code',
      description: `Wait up to timeout_seconds (at most ${MAX_WAIT_SECONDS}) for the order's code, or its next one after request_another_sms; answers the moment it is stored. Call again to keep waiting.`,
      inputSchema: {
        order_id: orderIdField,
        timeout_seconds: z.number().int().min(1).max(MAX_WAIT_SECONDS).optional(),
      },
      outputSchema: {
        status: z.enum(['code_received', 'waiting', 'canceled']),
        code: z.string().optional(),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ order_id, timeout_seconds }, extra) => {
      if (!waits.take(key.id)) return refused('TOO_MANY_WAITS');
      try {
        const state = await activations.waitForCode(key.userId, order_id, {
          timeoutMs: (timeout_seconds ?? DEFAULT_WAIT_SECONDS) * 1000,
          signal: extra.signal,
        });
        if (!state) return refused('NO_ACTIVATION');
        if (state.status === 'received' || state.status === 'completed')
          return result({ status: 'code_received' as const, code: state.code ?? '' });
        if (state.status === 'ended') return result({ status: 'canceled' as const });
        return result({ status: 'waiting' as const });
      } finally {
        waits.give(key.id);
      }
    },
  );

  server.registerTool(
    'get_order',
    {
      title: 'Get an order',
      description: 'An order with its status and every SMS it received.',
      inputSchema: { order_id: orderIdField },
      outputSchema: {
        ...orderSchema,
        status: z.string(),
        code: z.string().nullable(),
        sms: z.array(z.object({ text: z.string(), code: z.string().nullable(), received_at: z.string() })),
      },
      annotations: { readOnlyHint: true },
    },
    run('getStatus', async ({ order_id }: { order_id: number }) => {
      const order = await ownOrder(order_id);
      const number = await activations.numberOf(key.userId, order.id);
      return {
        ...presentOrder(order),
        status: number.status,
        code: number.code,
        sms: number.sms.map((sms) => ({ text: sms.text, code: sms.code, received_at: sms.received_at })),
      };
    }),
  );

  const orderAction = (
    name: string,
    title: string,
    description: string,
    act: (order: Activation) => Promise<unknown>,
  ) =>
    server.registerTool(
      name,
      {
        title,
        description,
        inputSchema: { order_id: orderIdField },
        outputSchema: { ok: z.boolean(), order_id: z.number().int() },
      },
      run('setStatus', async ({ order_id }: { order_id: number }) => {
        await act(await ownOrder(order_id));
        return { ok: true, order_id };
      }),
    );
  orderAction(
    'request_another_sms',
    'Request another SMS',
    'Ask for another SMS on an order that already received a code, within its 20 minutes (free).',
    (order) => activations.requestAnotherSms(order),
  );
  orderAction(
    'cancel_order',
    'Cancel an order',
    'Cancel an order that received no SMS; its price returns to the balance.',
    (order) => activations.cancel(key.userId, order.id),
  );
  orderAction(
    'finish_order',
    'Finish an order',
    'Mark an order that received its code as done.',
    async (order) => {
      if (order.status === 'completed') return;
      if (order.status !== 'received' || !(await activations.complete(order)))
        throw new ToolRefusal('BAD_STATUS');
    },
  );

  server.registerTool(
    'get_balance',
    {
      title: 'Get the balance',
      description: 'The account balance in US dollars.',
      outputSchema: { balance_usd: z.number() },
      annotations: { readOnlyHint: true },
    },
    run('getBalance', async () => ({ balance_usd: (await deps.money.balanceCents(key.userId)) / 100 })),
  );
  return server;
}
