import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../test/support/app';
import { fundUser } from '../../test/support/money';
import { anOffer, createListeningTestApp } from '../../test/support/upstream';
import { createUser } from '../../test/support/users';
import { createMetrics, serveMetrics } from './metrics';

const TOKEN = 'metrics-token-for-tests';

let t: TestApp | undefined;
afterEach(async () => {
  if (t) await closeTestApp(t);
  t = undefined;
});

/** The Prometheus text format, line by line: comments, or a sample `name{labels} value` (Prometheus reads NaN in any case). */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})?) (-?[0-9.e+-]+|[Nn]a[Nn]|[+-]?Inf)$/.exec(
        line,
      );
    if (!match) throw new Error(`not Prometheus text: ${line}`);
    samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

async function scrape(app: TestApp) {
  const response = await app.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return parse(response.body);
}

describe('/metrics', () => {
  it('answers only to its token, parses as Prometheus text, and its counters move with traffic', async () => {
    t = await createListeningTestApp({ METRICS_TOKEN: TOKEN });
    const app = t;
    expect((await app.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect(
      (await app.app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong-token-entirely' } }))
        .statusCode,
    ).toBe(401);

    const before = await scrape(app);
    const healthz = 'simcode_http_requests_total{method="GET",route="/healthz",status="200"}';
    const bought = 'simcode_upstream_purchase_calls_total{provider="sim-a",outcome="ok"}';
    for (let call = 0; call < 3; call += 1) await app.app.inject({ url: '/healthz' });
    // A scanner's URLs share one series.
    await app.app.inject({ url: '/no/such/page.php' });
    await app.app.inject({ url: '/another/missing' });
    const user = await createUser(app);
    await fundUser(app.ctx.database, user.id, 100_000);
    const offer = anOffer(app);
    const purchase = await app.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      headers: user.headers,
      payload: { countryID: offer.countryId, service: offer.service },
    });
    expect(purchase.statusCode).toBe(200);
    // Cancelled once the upstream allows it: refunded once, counted once, however many cancels race.
    app.clock.advance(2 * 60_000 + 1000);
    const orderId = purchase.json().number.id as number;
    const cancels = await Promise.all(
      [1, 2, 3].map(() =>
        app.app.inject({
          method: 'POST',
          url: `/api/dashboard/numbers/${orderId}/cancel`,
          headers: user.headers,
        }),
      ),
    );
    expect(cancels.filter((cancel) => cancel.statusCode === 200)).toHaveLength(1);

    const after = await scrape(app);
    expect((after.get(healthz) ?? 0) - (before.get(healthz) ?? 0)).toBe(3);
    expect((after.get(bought) ?? 0) - (before.get(bought) ?? 0)).toBe(1);
    expect(after.get('simcode_refunds_total{kind="activation",provider="sim-a",outcome="canceled"}')).toBe(1);
    expect([...after.keys()].filter((name) => name.includes('no/such'))).toEqual([]);
    expect(after.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(after.get('simcode_outbox_pending{outbox="webhooks"}')).toBe(0);
    expect(after.get('simcode_outbox_pending{outbox="mail"}')).toBeGreaterThanOrEqual(0);
    expect(
      [...after.keys()].some((name) => name.startsWith('simcode_http_request_duration_seconds_bucket')),
    ).toBe(true);
  });

  it('is not on the main port without METRICS_TOKEN; METRICS_PORT serves it alone', async () => {
    t = await createListeningTestApp();
    // Not served: whatever the main port answers for an unknown page (404, or 503 before the web app is built).
    const mainPort = await t.app.inject({ url: '/metrics' });
    expect(mainPort.statusCode).not.toBe(200);
    expect(mainPort.body).not.toContain('# HELP');
    const metrics = createMetrics({ served: true });
    metrics.jobRuns.inc({ job: 'sync', outcome: 'ok' });
    const server = await serveMetrics(metrics.registry, '127.0.0.1', 0);
    try {
      const address = server.address() as { port: number };
      const text = await (await fetch(`http://127.0.0.1:${address.port}/metrics`)).text();
      expect(parse(text).get('simcode_job_runs_total{job="sync",outcome="ok"}')).toBe(1);
      expect((await fetch(`http://127.0.0.1:${address.port}/`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
