import { gzipSync } from 'node:zlib';
import type { FastifyInstance, onSendHookHandler } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Gzip this route's answers when the client accepts it (the lists; small answers are not worth it). */
    compress?: boolean;
  }
}

/** Below this, compressing costs more than the bytes it saves. */
const MIN_BYTES = 1024;

/**
 * In one synchronous call on the event loop: a list answer is tens of kilobytes, which gzip compresses in
 * a fraction of a millisecond, while a compression stream per answer (zlib on the thread pool) cost a
 * third of the throughput and, with a hundred lists in flight, took the process past its memory budget.
 */
const compressAnswer: onSendHookHandler = (request, reply, payload, done) => {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
  reply.header('vary', 'accept-encoding');
  const tooSmall = Buffer.byteLength(payload) < MIN_BYTES;
  if (
    tooSmall ||
    reply.hasHeader('content-encoding') ||
    !/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')
  )
    return done(null, payload);
  reply.header('content-encoding', 'gzip');
  done(null, gzipSync(payload, { level: 5 }));
};

/** Adds the compression hook to the routes that ask for it (`config: { compress: true }`), and only to them. */
export function installAnswerCompression(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.config?.compress) return;
    const own = route.onSend ? (Array.isArray(route.onSend) ? route.onSend : [route.onSend]) : [];
    route.onSend = [...own, compressAnswer];
  });
}
