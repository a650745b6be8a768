import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * OpenTelemetry traces, off unless a collector is configured (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): a span per HTTP request (named by its route pattern, never its
 * URL), per outgoing HTTP call (suppliers, processors, webhooks: `fetch`, seen through undici's diagnostics
 * channels) and per job run, the calls children of what made them. Exported over OTLP/HTTP in batches.
 * Off, the SDK is never loaded and the API's tracer does nothing.
 */
export interface Tracing {
  readonly enabled: boolean;
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

const TRACER_NAME = 'simcode';

/** The tracer every part uses; the API's no-op one until `startTracing` registers a provider. */
export const tracer = (): Tracer => trace.getTracer(TRACER_NAME);

export function tracesUrl(
  config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'>,
) {
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT)
    return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

/** Registers the process's tracer provider when a collector is configured; once per process, before the app. */
export async function startTracing(config: Config): Promise<Tracing> {
  const url = tracesUrl(config);
  if (!url) return { enabled: false, shutdown: async () => {} };
  // Loaded only when used: an install without a collector carries none of it in memory.
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  // The global provider, AsyncLocalStorage for the active span, W3C trace context in and out.
  provider.register();
  const stopOutgoing = traceOutgoingCalls();
  return {
    enabled: true,
    async shutdown() {
      stopOutgoing();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/**
 * A server span per request, the active span while the request is handled, so what the handler calls is
 * its child. Registered only while tracing: the request hook's `done` called inside the span's context is
 * what makes the rest of the request run in it.
 */
export function traceRequests(app: FastifyInstance): void {
  const spans = new WeakMap<object, Span>();
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const parent = propagation.extract(context.active(), request.headers);
    const span = tracer().startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'http.route': route,
          // The path only: a query may carry a key (the SMS-Activate protocol's api_key).
          'url.path': request.url.split('?')[0]!,
        },
      },
      parent,
    );
    spans.set(request, span);
    context.with(trace.setSpan(parent, span), done);
  });
  const end = (request: object, statusCode: number | undefined) => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    if (statusCode !== undefined) span.setAttribute('http.response.status_code', statusCode);
    if (statusCode === undefined || statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  app.addHook('onResponse', async (request, reply) => end(request, reply.statusCode));
  app.addHook('onRequestAbort', async (request) => end(request, undefined));
}

/** What undici publishes of one request on its diagnostics channels. */
interface UndiciRequest {
  method: string;
  origin: string;
  path: string;
  addHeader(name: string, value: string): void;
}

/** A client span per `fetch` (undici), a child of the active span, with the trace context sent along. */
function traceOutgoingCalls(): () => void {
  const spans = new WeakMap<UndiciRequest, Span>();
  const channels: Record<string, (message: unknown) => void> = {
    'undici:request:create': (message) => {
      const { request } = message as { request: UndiciRequest };
      const span = tracer().startSpan(request.method, {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': request.method,
          'server.address': request.origin,
          'url.path': request.path.split('?')[0]!,
        },
      });
      spans.set(request, span);
      propagation.inject(trace.setSpan(context.active(), span), request, {
        set: (carrier, name, value) => carrier.addHeader(name, value),
      });
    },
    'undici:request:headers': (message) => {
      const { request, response } = message as { request: UndiciRequest; response: { statusCode: number } };
      spans.get(request)?.setAttribute('http.response.status_code', response.statusCode);
    },
    'undici:request:trailers': (message) => {
      const { request } = message as { request: UndiciRequest };
      spans.get(request)?.end();
      spans.delete(request);
    },
    'undici:request:error': (message) => {
      const { request, error } = message as { request: UndiciRequest; error: Error };
      const span = spans.get(request);
      if (!span) return;
      // The error's kind only: a message may quote a URL with its key.
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.name });
      span.end();
      spans.delete(request);
    },
  };
  for (const [name, listener] of Object.entries(channels)) subscribe(name, listener);
  return () => {
    for (const [name, listener] of Object.entries(channels)) unsubscribe(name, listener);
  };
}

/** Runs a job's run as the active span `job <name>`, failed when it throws. */
export function traceJob<T>(name: string, run: () => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(`job ${name}`, async (span) => {
    try {
      return await run();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).name });
      throw error;
    } finally {
      span.end();
    }
  });
}
