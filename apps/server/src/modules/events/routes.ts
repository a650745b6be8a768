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
  // Open streams end with the server, or a graceful shutdown would wait for them forever.
  const openStreams = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const end of openStreams) end();
  });

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
        if (event.type === 'account') return;
        pending.add(event.type);
        flush ??= setTimeout(() => {
          flush = undefined;
          for (const type of pending) stream.write(`event: ${type}\ndata: {}\n\n`);
          pending.clear();
        }, EVENT_COALESCE_MS);
      });
      const keepalive = setInterval(() => stream.write(': keepalive\n\n'), KEEPALIVE_MS);
      const end = () => {
        clearInterval(keepalive);
        clearTimeout(flush);
        unsubscribe();
        openStreams.delete(end);
        stream.end();
      };
      openStreams.add(end);
      request.raw.on('close', end);
    },
  );
};
