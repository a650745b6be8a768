import { sessionMessages } from '@simcode/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fail } from '../../lib/errors';
import { createKeyCheck, type KeyNeed, keyMay } from '../api-keys/key-check';
import { publicPriceRoutes } from '../catalog/public-routes';
import { statsRoutes } from '../stats/routes';
import { accountRoutes } from './account';
import type { ApiV1Deps } from './deps';
import { eventRoutes } from './events';
import { createIdempotency } from './idempotency';
import { describeApiV1 } from './openapi';
import { orderRoutes } from './orders';
import { rentRoutes } from './rents';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a JSON API route needs of its key (its scope); reads of the whole account unless said. */
    need?: KeyNeed;
  }
}

/** Who is calling the JSON API: `Authorization: Bearer <key>` or `X-Api-Key: <key>`. */
function rawKeyOf(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  const header = request.headers['x-api-key'];
  return bearer ?? (typeof header === 'string' ? header.trim() : undefined);
}

/**
 * `/api/v1`: the JSON API for bots and agents (its contract is packages/contract/src/api-v1.ts, its
 * document `/api/v1/openapi.json`). Every call is settled once, on the request line: the key (known keys
 * from memory, unknown ones within a per-address lookup limit), its allow-list, the limits per key and per
 * user, and its scope against what the route needs. Errors are problem details (lib/error-handler.ts).
 */
export const apiV1Routes: FastifyPluginAsyncZod<ApiV1Deps> = async (app, deps) => {
  // The document itself needs no key: clients are generated from it.
  app.get('/openapi.json', { schema: { hide: true } }, async () =>
    describeApiV1(app.swagger(), deps.publicUrl),
  );
  // Open data (issue 30): the Delivery Index needs no key either, nor the price list (issue 34).
  await app.register(statsRoutes, { deliveryIndex: deps.deliveryIndex });
  await app.register(publicPriceRoutes, { catalog: deps.catalog });

  await app.register(async (keyed: FastifyInstance) => {
    const keyOf = createKeyCheck(keyed, deps.apiKeys, deps.callsPerMinute.unknownKeyLookups);
    keyed.addHook('onRequest', async (request) => {
      const checked = await keyOf(request, rawKeyOf(request));
      if (checked === 'too_many_lookups') throw fail('rate_limited', sessionMessages.invalidToken);
      if (checked === 'bad_key' && rawKeyOf(request) === undefined) throw fail('unauthorized');
      if (typeof checked === 'string') throw fail('unauthorized', sessionMessages.invalidToken);
      const need = request.routeOptions.config.need ?? 'read';
      if (!keyMay(checked, need)) throw fail('scope_forbidden');
    });
    keyed.addHook(
      'preHandler',
      keyed.rateLimit({
        max: deps.callsPerMinute.perKey,
        timeWindow: 60_000,
        keyGenerator: (request) => `api-key:${request.resellerKey?.id}`,
      }),
    );
    keyed.addHook(
      'preHandler',
      keyed.rateLimit({
        max: deps.callsPerMinute.perUser,
        timeWindow: 60_000,
        keyGenerator: (request) => `api-user:${request.resellerKey?.userId}`,
      }),
    );
    const idempotency = createIdempotency(deps.db, deps.clock);
    const writes = { preHandler: idempotency.reserve, onSend: idempotency.keep };
    // The sub-plugins get the dependencies, not this plugin's own prefix again.
    const own = { ...deps, prefix: '' };
    await keyed.register(accountRoutes, own);
    await keyed.register(orderRoutes, { ...own, writes });
    await keyed.register(rentRoutes, { ...own, writes });
    await keyed.register(eventRoutes, own);
  });
};
