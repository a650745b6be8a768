import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Clients call this route on a timer (a status kept current): its successful, quick answers are logged
     * below `info`, one in `POLL_SAMPLE_EVERY` at `info`.
     */
    poll?: boolean;
  }
}

/** A request slower than this keeps its access line at `info` whatever its route: what an operator looks for. */
export const SLOW_REQUEST_MS = 1000;

/**
 * One successful poll in this many still writes its access line at `info` (with `sampled` saying so), so the
 * polling traffic stays visible at the default level; the others are at `debug`. A poll's line was a fifth
 * of its cost, and a page kept open polls every few seconds.
 */
export const POLL_SAMPLE_EVERY = 100;

/** Probes come every few seconds from every load balancer and orchestrator: noise, not traffic. */
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * The access line of an answered request: the request (its URL redacted by the logger's serializer), the
 * status and the time. Errors, slow answers and every route but the polls at `info`; successful polls at
 * `debug`, sampled at `info`.
 */
export function createAccessLog(): (request: FastifyRequest, reply: FastifyReply) => void {
  let polls = 0;
  return (request, reply) => {
    if (PROBES.has(request.url)) return;
    const statusCode = reply.statusCode;
    const responseTime = reply.elapsedTime;
    const routine =
      request.routeOptions.config?.poll === true && statusCode < 400 && responseTime < SLOW_REQUEST_MS;
    let sampled: number | undefined;
    if (routine) {
      polls = (polls + 1) % POLL_SAMPLE_EVERY;
      if (polls === 0) sampled = POLL_SAMPLE_EVERY;
    }
    const level = routine && sampled === undefined ? 'debug' : 'info';
    const log = request.log as Partial<Pick<Logger, 'isLevelEnabled'>> & FastifyRequest['log'];
    if (!(log.isLevelEnabled?.(level) ?? true)) return;
    log[level](
      sampled === undefined
        ? { req: request, res: { statusCode }, responseTime }
        : { req: request, res: { statusCode }, responseTime, sampled },
      'request completed',
    );
  };
}
