import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

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

/** An answer serialized once, and its gzip made on the first client that asks for it. */
interface SerializedAnswer {
  json: string;
  gzip?: Buffer;
}

/**
 * Answers of a route that serves the same value many times (a cached first page of a list), serialized
 * and compressed once per value instead of on every request. Entries are keyed by the cached value
 * itself: when its cache drops it (a change of the user's data), the next request brings a new value and
 * so a new entry, and the old one goes with the garbage. A client that asks for no compression gets the
 * JSON as it was serialized: nothing is compressed or decompressed for it.
 */
export class SerializedAnswers {
  readonly #entries = new WeakMap<object, SerializedAnswer>();

  send(request: FastifyRequest, reply: FastifyReply, value: object, answer: () => unknown): FastifyReply {
    let entry = this.#entries.get(value);
    if (!entry) {
      entry = { json: reply.serialize(answer()) as string };
      this.#entries.set(value, entry);
    }
    reply
      .header('content-type', 'application/json; charset=utf-8')
      // The lists carry sentences in the request's language (refund reasons).
      .header('vary', 'accept-encoding, accept-language');
    if (entry.json.length >= MIN_BYTES && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
      entry.gzip ??= gzipSync(entry.json, { level: 6 });
      return reply.header('content-encoding', 'gzip').send(entry.gzip);
    }
    return reply.send(entry.json);
  }
}
