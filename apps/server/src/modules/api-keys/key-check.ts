import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyService, AuthenticatedKey } from './service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The reseller API key of the call, once checked. */
    resellerKey?: AuthenticatedKey;
  }
}

/** Why a call's key was not accepted. */
export type KeyRefusal = 'bad_key' | 'address_refused' | 'too_many_lookups';

/**
 * The key check of the API-key routes (the SMS-Activate protocol, MCP, the JSON API): a key this process
 * knows is accepted from memory; any other costs a database lookup, which one address may cause only
 * `lookupsPerMinute` times a minute, so guessing keys is slow and costs the database nothing past that. A live key used from outside its allow-list is refused and noted in its log.
 */
export function createKeyCheck(app: FastifyInstance, apiKeys: ApiKeyService, lookupsPerMinute: number) {
  const lookups = app.createRateLimit({
    max: lookupsPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `api-key-lookups:${request.ip}`,
  });
  return async (request: FastifyRequest, raw: string | undefined): Promise<AuthenticatedKey | KeyRefusal> => {
    if (!raw) return 'bad_key';
    if (!apiKeys.isKnown(raw)) {
      const lookup = await lookups(request);
      if (!lookup.isAllowed && lookup.isExceeded) return 'too_many_lookups';
    }
    const key = await apiKeys.authenticate(raw);
    if (!key) return 'bad_key';
    if (!key.allows(request.ip)) {
      await apiKeys.note(key.id, 'ip_refused', `A call from ${request.ip}, outside the allow-list.`);
      return 'address_refused';
    }
    request.resellerKey = key;
    return key;
  };
}

/** What a call needs of its key: to read the account, to buy, or to read only what the key itself bought. */
export type KeyNeed = 'read' | 'buy' | 'own';

/**
 * The key's scope, decided once for every path: a full key does everything; a read-only key reads (its own
 * orders and the whole account) and buys nothing; a buy-only key buys and reads only what it bought.
 */
export function keyMay(key: AuthenticatedKey, need: KeyNeed): boolean {
  switch (key.record.scope) {
    case 'full':
      return true;
    case 'read':
      return need !== 'buy';
    case 'buy':
      return need !== 'read';
  }
}

/** Whether the key may see an order or rent: a buy-only key sees only what it bought itself. */
export function keySees(key: AuthenticatedKey, order: { apiKeyId: number | null }): boolean {
  return key.record.scope !== 'buy' || order.apiKeyId === key.id;
}
