import { protocolIds } from '@simcode/sms-activate-protocol';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { createApiKey, protocolCall } from '../../../test/support/reseller';
import { anOffer } from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';
import { simOrders } from '../../db/schema';

let t: TestApp;
afterEach(async () => {
  if (t) await closeTestApp(t);
});

/** The server as `npm start` runs it: the simulators in their worker, loaded before it listens, started after. */
async function serverWithSimulatorsInWorker(): Promise<TestApp> {
  const app = await createTestApp({
    SIMULATORS_THREAD: 'worker',
    SIMULATOR_SEED: '42',
    SIMULATOR_NO_SMS_RATE: '0',
    SIMULATOR_SMS_DELAY_MIN_MS: '0',
    SIMULATOR_SMS_DELAY_MAX_MS: '0',
    SMS_PROVIDER_TIMEOUT_MS: '5000',
  });
  await app.ctx.simulators.load();
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  app.ctx.loopback.setFromAddress(app.app.server.address());
  app.ctx.simulators.start();
  expect(await app.ctx.catalog.refreshFromUpstream()).toBe(true);
  return app;
}

const control = (command: string, body: unknown) =>
  fetch(`${t.ctx.loopback.origin}/simulator/control/${command}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-simulator-key': t.config.SMS_PROVIDER_KEY },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** Polls the protocol's getStatus a bounded number of times for the simulator's push to land. */
async function statusOnceDelivered(secret: string, id: number): Promise<string> {
  let status = '';
  for (let attempt = 0; attempt < 100 && !status.startsWith('STATUS_OK'); attempt += 1) {
    status = (await protocolCall(t, secret, 'getStatus', { id })).body;
    if (!status.startsWith('STATUS_OK')) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return status;
}

describe('the built-in simulators in a worker thread of their own', () => {
  it('sell, push the code to the server, keep their state in its database and answer on its port', async () => {
    t = await serverWithSimulatorsInWorker();
    // Nothing of theirs runs on the server's loop: the product calls them on the worker's own port.
    expect(t.ctx.simulators.inProcess).toEqual([]);
    expect(t.ctx.simulators.origin()).not.toBe(t.ctx.loopback.origin);

    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const key = await createApiKey(t, user);
    const offer = anOffer(t, 'GB');
    const answer = await protocolCall(t, key.secret, 'getNumber', {
      service: protocolIds.serviceOf(offer.service),
      country: protocolIds.countryOf('GB'),
    });
    expect(answer.body).toMatch(/^ACCESS_NUMBER:/);
    const orderId = Number(answer.body.split(':')[1]);
    // The SMS is due at once: the worker's timer pushes it to the server's webhook.
    expect(await statusOnceDelivered(key.secret, orderId)).toMatch(/^STATUS_OK:\d+/);

    // What the worker acknowledged was stored through the server.
    const stored = await t.ctx.database.db.select().from(simOrders).where(eq(simOrders.instance, 'sim-a'));
    expect(stored.filter((order) => order.kind === 'activation')).toHaveLength(1);
    await assertLedgerInvariant(t.ctx.database);
  });

  it('passes the control API on from the server port, and the product knows a new window before the answer', async () => {
    t = await serverWithSimulatorsInWorker();
    const changed = await control('settings', { earlyCancelMs: 4321 });
    expect(changed.status).toBe(200);
    expect(t.ctx.providers.earlyCancelMs('sim-a')).toBe(4321);
  });

  it('answers on the server port what they answered as plugins of the server, refusals included', async () => {
    // Each app's own key: a data folder of its own generates one.
    const requestsFor = (key: string): Array<{ path: string; init?: RequestInit }> => [
      { path: '/simulator/stubs/handler_api.php?action=getBalance&api_key=wrong' },
      { path: `/simulator/stubs/handler_api.php?action=nonsense&api_key=${key}` },
      {
        path: '/simulator/stubs/handler_api.php',
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'action=getBalance&api_key=wrong',
        },
      },
      { path: '/simulator/no-such-page', init: { headers: { 'accept-language': 'ru' } } },
      {
        path: '/simulator/control/settings',
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-simulator-key': key },
          body: '{not json',
        },
      },
      {
        path: '/simulator/control/settings',
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-simulator-key': 'wrong' },
          body: '{}',
        },
      },
    ];
    const answersOf = async (app: TestApp) =>
      Promise.all(
        requestsFor(app.config.SMS_PROVIDER_KEY).map(async ({ path, init }) => {
          const response = await fetch(`${app.ctx.loopback.origin}${path}`, init);
          return {
            status: response.status,
            type: response.headers.get('content-type'),
            body: await response.text(),
          };
        }),
      );
    t = await serverWithSimulatorsInWorker();
    const inWorker = await answersOf(t);
    await closeTestApp(t);
    t = await createTestApp({ SIMULATORS_THREAD: 'main' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.ctx.loopback.setFromAddress(t.app.server.address());
    const onServerLoop = await answersOf(t);
    expect(inWorker).toEqual(onServerLoop);
    expect(inWorker.map((answer) => answer.status)).toEqual([200, 200, 200, 404, 400, 401]);
    expect(JSON.parse(inWorker[3]!.body)).toMatchObject({ success: false, code: 'not_found' });
  });

  it('stops: the worker no longer answers and a request on the server port is refused as unavailable', async () => {
    t = await serverWithSimulatorsInWorker();
    const workerOrigin = t.ctx.simulators.origin();
    await t.ctx.simulators.stop();
    await expect(fetch(`${workerOrigin}/simulator/stubs/handler_api.php`)).rejects.toThrow();
    const passed = await fetch(`${t.ctx.loopback.origin}/simulator/stubs/handler_api.php?action=getBalance`);
    expect(passed.status).toBe(503);
    expect(await passed.json()).toMatchObject({ success: false, code: 'upstream_unavailable' });
  });
});
