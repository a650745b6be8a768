import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { UserEvent, UserEventBus } from '../../db/user-events';
import { currentUser } from '../auth/guards';
import type { AuthService } from '../auth/service';

/** Comment lines keep proxies from closing an idle stream. */
const KEEPALIVE_MS = 25_000;
const EVENT_COALESCE_MS = 100;

/** What a page is told of a change: which order or rent, and the new code when that is the change. */
function payloadOf(event: UserEvent): Record<string, unknown> {
  if (event.type === 'numbers')
    return event.orderId === undefined
      ? {}
      : { order_id: event.orderId, ...(event.code ? { code: event.code } : {}) };
  if (event.type === 'rents') return event.rentId === undefined ? {} : { rent_id: event.rentId };
  return {};
}

interface EventRouteDeps {
  events: UserEventBus;
  /** To tell whether a stream's session still stands after its account changed. */
  auth: AuthService;
  maxStreams: number;
  maxStreamsPerUser: number;
  /** Counts the streams open (the metrics). */
  openStreams?: { inc(): void; dec(): void };
}

/**
 * Server-sent events for the signed-in user's pages: `numbers`, `rents` or `balance` changed, with the
 * order or rent and a new code in the message, so a page shows a code without asking for it. The pages
 * still poll as the spec says; this only makes a code show up the moment it arrives.
 */
export const eventRoutes: FastifyPluginAsyncZod<EventRouteDeps> = async (
  app,
  { events, auth, maxStreams, maxStreamsPerUser, openStreams: streamsGauge },
) => {
  // Open streams end as the server starts closing (preClose: before it waits for open connections, which
  // a stream would hold forever); the page reconnects to another instance. Sets keep the order streams
  // opened in: past a cap, the oldest one closes (its page reconnects if it is still open).
  const openStreams = new Set<() => void>();
  const streamsByUser = new Map<number, Set<() => void>>();
  const endAll = () => {
    for (const end of openStreams) end();
  };
  app.addHook('preClose', async () => endAll());
  // Events from other instances may have been missed: a page reads everything again when its stream ends.
  const stopResync = events.onResync(endAll);
  app.addHook('onClose', async () => stopResync());
  function admit(userId: number, end: () => void) {
    const ofUser = streamsByUser.get(userId) ?? new Set();
    streamsByUser.set(userId, ofUser);
    ofUser.add(end);
    openStreams.add(end);
    streamsGauge?.inc();
    if (ofUser.size > maxStreamsPerUser) ofUser.values().next().value?.();
    if (openStreams.size > maxStreams) openStreams.values().next().value?.();
  }
  function release(userId: number, end: () => void) {
    if (openStreams.delete(end)) streamsGauge?.dec();
    const ofUser = streamsByUser.get(userId);
    ofUser?.delete(end);
    if (ofUser?.size === 0) streamsByUser.delete(userId);
  }

  app.get(
    '/events',
    {
      schema: { tags: ['account'], summary: 'Live change notifications (text/event-stream)' },
    },
    async (request, reply) => {
      const user = currentUser(request);
      reply.hijack();
      const stream = reply.raw;
      stream.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      stream.write('retry: 3000\n\n');
      // A change usually arrives twice (from this process and from the database) and often in bursts: one
      // message per order (or kind) within a short window, the one with a code kept, makes the page act once.
      const pending = new Map<string, UserEvent>();
      let flush: NodeJS.Timeout | undefined;
      const unsubscribe = events.subscribe(user.id, (event) => {
        // The account changed (a revocation, a block, a role): a stream whose session ended closes now,
        // on whichever instance holds it. The identity cache already forgot the user for this event.
        if (event.type === 'account') {
          auth.authenticate(request.headers.authorization).catch(() => end());
          return;
        }
        if (event.type === 'api-keys') return;
        const key = `${event.type}:${event.orderId ?? event.rentId ?? ''}`;
        if (!(pending.get(key)?.code && !event.code)) pending.set(key, event);
        flush ??= setTimeout(() => {
          flush = undefined;
          for (const change of pending.values())
            stream.write(`event: ${change.type}\ndata: ${JSON.stringify(payloadOf(change))}\n\n`);
          pending.clear();
        }, EVENT_COALESCE_MS);
      });
      const keepalive = setInterval(() => stream.write(': keepalive\n\n'), KEEPALIVE_MS);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(keepalive);
        clearTimeout(flush);
        unsubscribe();
        release(user.id, end);
        stream.end();
      };
      request.raw.on('close', end);
      admit(user.id, end);
    },
  );
};
