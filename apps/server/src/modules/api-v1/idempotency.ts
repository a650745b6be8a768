import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { Database } from '../../db/client';
import { apiIdempotencyKeys } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { fail, isUniqueViolation } from '../../lib/errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x21-\x7e]{8,100}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The idempotency key this write reserved, until its answer is stored. */
    idempotencyKey?: string;
  }
}

/**
 * `Idempotency-Key` on the JSON API's writes, as payment APIs have it: the first request with a key runs and
 * its successful answer is kept; a repeat gets that answer again (with `Idempotent-Replayed: true`), one
 * while the first still runs gets 409, and the same key with another request gets 422. A write that failed
 * keeps nothing, so the same key may be tried again. Keys are per API key.
 */
export function createIdempotency(db: Database, clock: Clock) {
  const mine = (apiKeyId: number, key: string) =>
    and(eq(apiIdempotencyKeys.apiKeyId, apiKeyId), eq(apiIdempotencyKeys.idempotencyKey, key));

  const reserve: preHandlerHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    const key = Array.isArray(header) ? '' : header;
    if (!KEY_PATTERN.test(key)) throw fail('invalid_idempotency_key');
    const apiKeyId = request.resellerKey!.id;
    const requestHash = createHash('sha256')
      .update(
        `${request.method} ${request.routeOptions.url} ${JSON.stringify(request.params)} ${JSON.stringify(request.body ?? null)}`,
      )
      .digest('hex');
    try {
      await db
        .insert(apiIdempotencyKeys)
        .values({ apiKeyId, idempotencyKey: key, requestHash, createdAt: clock.now() });
      request.idempotencyKey = key;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const [earlier] = await db.select().from(apiIdempotencyKeys).where(mine(apiKeyId, key));
      if (earlier?.requestHash !== requestHash) throw fail('idempotency_key_reused');
      if (earlier.responseStatus === null) throw fail('idempotency_in_progress');
      return reply
        .code(earlier.responseStatus)
        .header('idempotent-replayed', 'true')
        .send(earlier.responseBody);
    }
  };

  const keep: onSendHookHandler = async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (key === undefined) return payload;
    request.idempotencyKey = undefined;
    const where = and(mine(request.resellerKey!.id, key), isNull(apiIdempotencyKeys.responseStatus));
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string')
      await db
        .update(apiIdempotencyKeys)
        .set({ responseStatus: reply.statusCode, responseBody: JSON.parse(payload) })
        .where(where);
    else await db.delete(apiIdempotencyKeys).where(where);
    return payload;
  };

  return { reserve, keep };
}
