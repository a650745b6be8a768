import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../test/support/app';
import { fundUser } from '../../test/support/money';
import { anOffer, buyThroughApi, createListeningTestApp } from '../../test/support/upstream';
import { createUser } from '../../test/support/users';
import { startTracing, type Tracing } from './tracing';

/** What an OTLP/HTTP collector receives, as JSON (the exporter's encoding). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: number | string } }>;
}
const SERVER = 2;
const CLIENT = 3;

/** A collector stand-in: takes OTLP/HTTP JSON at /v1/traces and keeps every span and resource. */
async function startCollector() {
  const bodies: Array<{
    resourceSpans: Array<{
      resource: { attributes: OtlpSpan['attributes'] };
      scopeSpans: Array<{ spans: OtlpSpan[] }>;
    }>;
  }> = [];
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      paths.push(request.url ?? '');
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    spans: () =>
      bodies.flatMap((body) => body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))),
    resources: () => bodies.flatMap((body) => body.resourceSpans.map((r) => r.resource)),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

let t: TestApp | undefined;
let tracing: Tracing | undefined;
let collector: Awaited<ReturnType<typeof startCollector>> | undefined;
afterEach(async () => {
  await tracing?.shutdown();
  if (t) await closeTestApp(t);
  await collector?.close();
  [t, tracing, collector] = [undefined, undefined, undefined];
});

describe('traces', () => {
  it('are off without a collector: nothing registered, no request hook', async () => {
    t = await createTestApp();
    tracing = await startTracing(t.config);
    expect(tracing.enabled).toBe(false);
  });

  it('follow a purchase from its request to the supplier’s answer, named by route, without keys', async () => {
    collector = await startCollector();
    t = await createListeningTestApp({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
    tracing = await startTracing(t.config);
    expect(tracing.enabled).toBe(true);
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const offer = anOffer(t, 'US');
    const bought = await buyThroughApi(t, user, offer.service);
    expect(bought.statusCode, bought.body).toBe(200);
    await tracing.shutdown();
    tracing = undefined;

    expect(collector.paths).toContain('/v1/traces');
    expect(collector.resources()[0]!.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'simcode' },
    });
    const spans = collector.spans();
    const purchase = spans.find((span) => span.name === 'POST /api/dashboard/buy-number')!;
    expect(purchase).toMatchObject({ kind: SERVER });
    expect(attribute(purchase, 'http.response.status_code')).toBe(200);
    // The calls to the supplier are the purchase's children, and the supplier's side (the simulator on
    // this server) continues the same trace.
    const calls = spans.filter((span) => span.kind === CLIENT && span.parentSpanId === purchase.spanId);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => attribute(call, 'url.path') === '/simulator/stubs/handler_api.php')).toBe(
      true,
    );
    const answered = spans.filter(
      (span) => span.kind === SERVER && calls.some((call) => call.spanId === span.parentSpanId),
    );
    expect(answered.map((span) => span.name)).toContain('GET /simulator/stubs/handler_api.php');
    expect(answered.every((span) => span.traceId === purchase.traceId)).toBe(true);
    // No key or session in any span.
    const text = JSON.stringify(spans);
    expect(text).not.toContain(t.config.smsProviders[0]!.key!);
    expect(text).not.toContain('api_key');
  });
});
