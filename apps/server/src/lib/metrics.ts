import { createServer, type Server } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DependencyState } from './rate-limit-store';

/**
 * The process's Prometheus metrics (prom-client): HTTP traffic by route, upstream purchase calls by provider
 * and outcome, background job runs and how long since each last succeeded, open live-update streams, the
 * database pool, the state of Redis and of the LISTEN connection, and Node's own (event loop lag, heap, GC).
 * Label values are bounded sets: route patterns (never raw URLs), provider and job names, outcomes.
 */
export function createMetrics(options: { served: boolean }) {
  const registry = new Registry();
  // Node's own metrics sample the event loop continuously: only when someone reads them.
  if (options.served) collectDefaultMetrics({ register: registry });
  const httpRequests = new Counter({
    name: 'simcode_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'simcode_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const upstreamCalls = new Counter({
    name: 'simcode_upstream_purchase_calls_total',
    help: 'Purchase calls to SMS suppliers, by provider and outcome (ok, no_numbers, error, ...)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [registry],
  });
  const upstreamDuration = new Histogram({
    name: 'simcode_upstream_purchase_call_duration_seconds',
    help: 'Time of a purchase call to an SMS supplier, by provider',
    labelNames: ['provider'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'simcode_job_runs_total',
    help: 'Background job runs, by job and outcome (ok, error)',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobLastSuccess = new Gauge({
    name: 'simcode_job_last_success_timestamp_seconds',
    help: 'When each background job last finished without an error (alert when now minus this grows)',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const refunds = new Counter({
    name: 'simcode_refunds_total',
    help: 'Refunds committed, by what was refunded (activation, rent, renewal), provider and outcome (canceled, expired, failed, refunded)',
    labelNames: ['kind', 'provider', 'outcome'] as const,
    registers: [registry],
  });
  const sseStreams = new Gauge({
    name: 'simcode_sse_streams',
    help: 'Live-update streams open on this instance',
    registers: [registry],
  });
  return {
    registry,
    upstreamCalls,
    upstreamDuration,
    jobRuns,
    jobLastSuccess,
    refunds,
    sseStreams,
    /** Counts an answer by its route pattern (called by the response hook of app/build-app.ts). */
    observeHttp(request: FastifyRequest, reply: FastifyReply) {
      // Unmatched URLs share one label: a scanner must not create a series per path it tries.
      const route = request.routeOptions.url ?? 'unmatched';
      httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
      httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    },
    /** Gauges read when scraped: the database pool, the shared dependencies, the outboxes' depths. */
    observeDependencies(sources: {
      pool?: pg.Pool;
      redisState(): DependencyState | undefined;
      listenerState(): DependencyState | undefined;
      outboxDepths(): Promise<Record<string, number>>;
    }) {
      new Gauge({
        name: 'simcode_outbox_pending',
        help: 'Rows waiting in an outbox the jobs drain: mail, webhooks (customer webhook deliveries)',
        labelNames: ['outbox'] as const,
        registers: [registry],
        async collect() {
          for (const [outbox, depth] of Object.entries(await sources.outboxDepths()))
            this.set({ outbox }, depth);
        },
      });
      const { pool } = sources;
      if (pool) {
        new Gauge({
          name: 'simcode_db_pool_connections',
          help: 'PostgreSQL pool connections, by state (total, idle, waiting requests)',
          labelNames: ['state'] as const,
          registers: [registry],
          collect() {
            this.set({ state: 'total' }, pool.totalCount);
            this.set({ state: 'idle' }, pool.idleCount);
            this.set({ state: 'waiting' }, pool.waitingCount);
          },
        });
      }
      new Gauge({
        name: 'simcode_dependency_up',
        help: 'Whether a shared dependency is reachable (1) or not (0): redis, listen (PostgreSQL LISTEN)',
        labelNames: ['dependency'] as const,
        registers: [registry],
        collect() {
          for (const [dependency, state] of [
            ['redis', sources.redisState()],
            ['listen', sources.listenerState()],
          ] as const)
            if (state) this.set({ dependency }, state === 'up' ? 1 : 0);
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * METRICS_PORT: a plain HTTP server that answers `GET /metrics` and nothing else, for a scraper on a private
 * network; resolves once it listens.
 */
export function serveMetrics(registry: Registry, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
