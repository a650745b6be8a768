import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyService, AuthenticatedKey } from '../api-keys/service';

/** Lookups of keys this process does not know that one address may cause in a minute. */
export const UNKNOWN_KEY_LOOKUPS_PER_MINUTE = 60;

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
 * UNKNOWN_KEY_LOOKUPS_PER_MINUTE times a minute, so guessing keys is slow and costs the database nothing past
 * that. A live key used from outside its allow-list is refused and noted in its log.
 */
export function createKeyCheck(app: FastifyInstance, apiKeys: ApiKeyService) {
  const lookups = app.createRateLimit({
    max: UNKNOWN_KEY_LOOKUPS_PER_MINUTE,
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
