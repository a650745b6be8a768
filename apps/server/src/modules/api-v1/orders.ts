import {
  apiV1BuyRequestSchema,
  apiV1CodeQuerySchema,
  apiV1CodeSchema,
  apiV1IdParamSchema,
  apiV1OrderSchema,
  apiV1OrdersSchema,
  apiV1PageQuerySchema,
} from '@simcode/contract';
import type { FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Activation } from '../../db/schema';
import { fail, notFound } from '../../lib/errors';
import { keySees } from '../api-keys/key-check';
import { KeyCapError } from '../api-keys/service';
import { ANY_OPERATOR } from '../catalog/service';
import { withDeliveryFloor } from '../orders/hold';
import { asKey, namedChoice, TAGS } from './account';
import { pageOf, positionOf } from './cursor';
import type { ApiV1Deps } from './deps';

/** The hooks of a write: its idempotency key reserved before, its answer kept after. */
export interface WriteHooks {
  preHandler: preHandlerHookHandler;
  onSend: onSendHookHandler;
}

/** One-time orders: buy, list, read, wait for the code, another SMS, cancel, finish. */
export const orderRoutes: FastifyPluginAsyncZod<ApiV1Deps & { writes: WriteHooks }> = async (app, deps) => {
  const { activations, apiKeys, waits } = deps;
  const schema = { tags: [TAGS.orders], security: asKey };

  /** An order of the caller the key may see; 404 otherwise, as for any other user's. */
  async function visibleOrder(request: FastifyRequest, id: number): Promise<Activation> {
    const key = request.resellerKey!;
    const order = await activations.find(key.userId, id);
    if (!order || order.status === 'failed' || !keySees(key, order)) throw notFound();
    return order;
  }

  /** A refusal by one of the key's caps is also written to the key's log, as on every other path. */
  async function noted<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof KeyCapError)
        await apiKeys.note(error.apiKeyId, 'cap_refused', `API v1: ${error.detail}`).catch(() => {});
      throw error;
    }
  }

  app.post(
    '/orders',
    {
      config: { need: 'buy' },
      ...deps.writes,
      schema: {
        ...schema,
        summary: 'Buy a one-time number',
        description:
          'Name a country, or several in order of preference: each is tried in turn, at most at its own price and never above `max_price`. Charged once; refunded when no SMS arrives in 20 minutes. Send an `Idempotency-Key` header to make a retry safe.',
        body: apiV1BuyRequestSchema,
        response: { 201: apiV1OrderSchema },
      },
    },
    async (request, reply) => {
      const key = request.resellerKey!;
      const { service } = namedChoice({ service: request.body.service });
      const countries = request.body.countries ?? [request.body.country!];
      const maxPriceCents =
        request.body.max_price === undefined ? undefined : Math.round(request.body.max_price * 100);
      const order = await noted(() =>
        activations.buyFirstOf(
          key.userId,
          countries.map((country) => ({
            countryId: namedChoice({ country }).countryId!,
            operator: request.body.operator?.trim().toLowerCase() || ANY_OPERATOR,
            service: service!,
            shownPriceCents: maxPriceCents,
          })),
          withDeliveryFloor(apiKeys.spendThrough(key), request.body.min_delivery_rate),
        ),
      );
      return reply.code(201).send(await activations.numberOf(key.userId, order.id));
    },
  );

  app.get(
    '/orders',
    {
      config: { need: 'own' },
      schema: {
        ...schema,
        summary: 'The account’s one-time orders, newest first (a buy-only key sees the ones it bought)',
        querystring: apiV1PageQuerySchema,
        response: { 200: apiV1OrdersSchema },
      },
    },
    async (request) => {
      const key = request.resellerKey!;
      const { limit, cursor } = request.query;
      const rows = await activations.listNumbers(key.userId, limit + 1, positionOf(cursor), {
        apiKeyId: key.record.scope === 'buy' ? key.id : undefined,
      });
      const { page, next_cursor } = pageOf(rows, limit);
      return { data: page, next_cursor };
    },
  );

  app.get(
    '/orders/:id',
    {
      config: { need: 'own', poll: true },
      schema: {
        ...schema,
        summary: 'One order, with every SMS it received',
        params: apiV1IdParamSchema,
        response: { 200: apiV1OrderSchema },
      },
    },
    async (request) => {
      const order = await visibleOrder(request, request.params.id);
      return activations.numberOf(order.userId, order.id);
    },
  );

  app.get(
    '/orders/:id/code',
    {
      config: { need: 'own', poll: true },
      schema: {
        ...schema,
        summary: 'The order’s code; with `wait`, answered the moment it is stored (a long-poll)',
        description:
          'Waits up to `wait` seconds (at most 60) for the code, or for the next one after another-sms, and answers as soon as it is stored: no need to poll. `waiting` when the time ran out first.',
        params: apiV1IdParamSchema,
        querystring: apiV1CodeQuerySchema,
        response: { 200: apiV1CodeSchema },
      },
    },
    async (request) => {
      const key = request.resellerKey!;
      const order = await visibleOrder(request, request.params.id);
      const waitMs = request.query.wait * 1000;
      if (waitMs > 0 && !waits.take(key.id)) throw fail('too_many_waits');
      const gone = new AbortController();
      request.raw.once('close', () => gone.abort());
      try {
        const state = await activations.waitForCode(key.userId, order.id, {
          timeoutMs: waitMs,
          signal: gone.signal,
        });
        if (!state) throw notFound();
        return { order_id: order.id, status: state.status, code: state.code };
      } finally {
        if (waitMs > 0) waits.give(key.id);
      }
    },
  );

  const action = (path: string, summary: string, act: (order: Activation) => Promise<unknown>) =>
    app.post(
      `/orders/:id/${path}`,
      {
        config: { need: 'buy' },
        ...deps.writes,
        schema: { ...schema, summary, params: apiV1IdParamSchema, response: { 200: apiV1OrderSchema } },
      },
      async (request) => {
        const order = await visibleOrder(request, request.params.id);
        await act(order);
        return activations.numberOf(order.userId, order.id);
      },
    );
  action(
    'another-sms',
    'Ask for another SMS on an order that received its code (free, within its lifetime)',
    (order) => activations.requestAnotherSms(order),
  );
  action('cancel', 'Cancel an order that received no SMS; its price comes back once', (order) =>
    activations.cancel(order.userId, order.id),
  );
  action(
    'finish',
    'Mark an order that received its code as done (frees the number at the provider)',
    async (order) => {
      if (order.status === 'completed') return;
      if (order.status !== 'received' || !(await activations.complete(order))) throw fail('no_code_yet');
    },
  );
};
