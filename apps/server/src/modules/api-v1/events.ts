import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { UserEvent } from '../../db/user-events';
import { fail } from '../../lib/errors';
import { asKey, TAGS } from './account';
import type { ApiV1Deps } from './deps';

/** Comment lines keep proxies from closing an idle stream. */
const KEEPALIVE_MS = 25_000;

/** What a key's stream says of a change: `order` (with the new code when that is the change), `rent`, `balance`. */
function messageOf(event: UserEvent): { name: string; data: Record<string, unknown> } | undefined {
  if (event.type === 'numbers' && event.orderId !== undefined)
    return { name: 'order', data: { order_id: event.orderId, ...(event.code ? { code: event.code } : {}) } };
  if (event.type === 'rents' && event.rentId !== undefined)
    return { name: 'rent', data: { rent_id: event.rentId } };
  if (event.type === 'balance') return { name: 'balance', data: {} };
  return undefined;
}

/**
 * `GET /events`: the key's push channel (server-sent events). A code is in the `order` message the moment it
 * is stored, so a bot waits on this stream instead of polling; a buy-only key hears only of what it bought.
 * Nothing is read from the database while nothing happens.
 */
export const eventRoutes: FastifyPluginAsyncZod<ApiV1Deps> = async (app, { events, waits }) => {
  // Streams end as the server starts closing, and when events may have been missed (the description tells
  // a client to read its orders again after a reconnect).
  const open = new Set<() => void>();
  const endAll = () => {
    for (const end of open) end();
  };
  app.addHook('preClose', async () => endAll());
  const stopResync = events.onResync(endAll);
  app.addHook('onClose', async () => stopResync());

  app.get(
    '/events',
    {
      config: { need: 'own' },
      schema: {
        tags: [TAGS.orders],
        security: asKey,
        summary: 'Server-sent events of the account’s orders, rents and balance, codes included',
        description:
          'A `text/event-stream`: `event: order` with `{"order_id", "code"?}`, `event: rent` with `{"rent_id"}`, `event: balance`. Reconnect when it ends; read the orders again after a reconnect.',
      },
    },
    async (request, reply) => {
      const key = request.resellerKey!;
      if (!waits.take(key.id)) throw fail('too_many_waits');
      reply.hijack();
      const stream = reply.raw;
      stream.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      stream.write('retry: 3000\n\n');
      const onlyOwn = key.record.scope === 'buy';
      const unsubscribe = events.subscribe(key.userId, (event) => {
        if (onlyOwn && event.type !== 'balance' && event.apiKeyId !== key.id) return;
        const message = messageOf(event);
        if (message) stream.write(`event: ${message.name}\ndata: ${JSON.stringify(message.data)}\n\n`);
      });
      const keepalive = setInterval(() => stream.write(': keepalive\n\n'), KEEPALIVE_MS);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(keepalive);
        unsubscribe();
        open.delete(end);
        waits.give(key.id);
        stream.end();
      };
      open.add(end);
      request.raw.on('close', end);
    },
  );
};
