import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { DatabaseHandle } from '../../db/client';
import { fail } from '../../lib/errors';
import type { DependencyState } from '../../lib/rate-limit-store';
import { timingSafeEqualText } from '../../lib/timing-safe';

const READY_TIMEOUT_MS = 2000;

export interface ReadinessSources {
  database: DatabaseHandle;
  /** Redis, when REDIS_URL is set: without it limits are counted per instance (degraded, still serving). */
  redisState(): DependencyState | undefined;
  /** The LISTEN connection on PostgreSQL: without it other instances' events are missed until it is back. */
  listenerState(): DependencyState | undefined;
  /** Background jobs whose run has lasted far too long (undefined until the jobs start). */
  stuckJobs(): string[] | undefined;
  /** True from SIGTERM on: the load balancer is told to route elsewhere before the server stops listening. */
  draining(): boolean;
}

/**
 * `/healthz` says the process answers; `/readyz` whether to route to it: 503 when the database does not
 * answer or the instance is shutting down, `degraded` (still 200) when a dependency it can serve without is
 * down — taking every instance out of rotation because a shared Redis fails would be the outage the
 * fallback avoids. Neither is written to the access log (see build-app.ts).
 */
export const healthRoutes: FastifyPluginAsyncZod<ReadinessSources> = async (app, sources) => {
  app.get(
    '/healthz',
    { schema: { hide: true, response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const dependencies = {
      database: sources.database.kind,
      redis: sources.redisState(),
      events: sources.listenerState(),
      stuckJobs: sources.stuckJobs(),
    };
    if (sources.draining()) return reply.code(503).send({ status: 'draining', ...dependencies });
    try {
      await Promise.race([
        sources.database.db.execute(sql`select 1`),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('database timeout')), READY_TIMEOUT_MS).unref(),
        ),
      ]);
    } catch (error) {
      reply.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', ...dependencies });
    }
    const degraded =
      dependencies.redis === 'down' ||
      dependencies.events === 'down' ||
      (dependencies.stuckJobs?.length ?? 0) > 0;
    return { status: degraded ? 'degraded' : 'ready', ...dependencies };
  });
};

/** `GET /metrics` on the main port, for METRICS_TOKEN as a bearer token; anyone else gets 401. */
export const metricsRoutes: FastifyPluginAsyncZod<{ registry: Registry; token: string }> = async (
  app,
  { registry, token },
) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqualText(given, token)) throw fail('unauthorized');
    reply.type(registry.contentType);
    return registry.metrics();
  });
};
