import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { createGuards, currentUser } from '../auth/guards';

/** Comment lines keep proxies from closing an idle stream. */
const KEEPALIVE_MS = 25_000;
const EVENT_COALESCE_MS = 100;

/**
 * Server-sent events for the signed-in user's pages: `numbers`, `rents` or `balance` changed. The pages
 * still poll as the spec says; this only makes a code show up the moment it arrives.
 */
export const eventRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { requireUser } = createGuards(ctx.auth);
  // Who is calling is settled on the request line, before any input is judged.
  app.addHook('onRequest', requireUser);
  // Open streams end with the server, or a graceful shutdown would wait for them forever. Sets keep the
  // order streams opened in: past a cap, the oldest one closes (its page reconnects if it is still open).
  const openStreams = new Set<() => void>();
  const streamsByUser = new Map<number, Set<() => void>>();
  app.addHook('onClose', async () => {
    for (const end of openStreams) end();
  });
  function admit(userId: number, end: () => void) {
    const ofUser = streamsByUser.get(userId) ?? new Set();
    streamsByUser.set(userId, ofUser);
    ofUser.add(end);
    openStreams.add(end);
    if (ofUser.size > ctx.config.SSE_MAX_STREAMS_PER_USER) ofUser.values().next().value?.();
    if (openStreams.size > ctx.config.SSE_MAX_STREAMS) openStreams.values().next().value?.();
  }
  function release(userId: number, end: () => void) {
    openStreams.delete(end);
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
      // message per kind within a short window makes the page refetch once.
      const pending = new Set<string>();
      let flush: NodeJS.Timeout | undefined;
      const unsubscribe = ctx.events.subscribe(user.id, (event) => {
        // The account changed (a revocation, a block, a role): a stream whose session ended closes now,
        // on whichever instance holds it. The identity cache already forgot the user for this event.
        if (event.type === 'account') {
          ctx.auth.authenticate(request.headers.authorization).catch(() => end());
          return;
        }
        if (event.type === 'tickets') return;
        pending.add(event.type);
        flush ??= setTimeout(() => {
          flush = undefined;
          for (const type of pending) stream.write(`event: ${type}\ndata: {}\n\n`);
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
