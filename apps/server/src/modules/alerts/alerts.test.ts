import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimCodeClient } from '@simcode/client';
import { TELEGRAM_STAND_IN_PREFIX } from '@simcode/stand-ins';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { createPaymentsTestApp, nowPaymentsControl } from '../../../test/support/payments';
import { quietSimulator, rentAction, rentedNumber } from '../../../test/support/rents';
import { createApiKey } from '../../../test/support/reseller';
import {
  activationSync,
  aFailoverOffer,
  anOffer,
  createListeningTestApp,
  simulatorControl,
} from '../../../test/support/upstream';
import { createUser, type TestUser } from '../../../test/support/users';
import { activations, mailQueue, operatorAlerts } from '../../db/schema';
import { balanceOf } from '../accounts/ledger';
import { type MailPayloads, renderMail } from '../mail/templates';
import { PROBE_INTERVAL_MS } from '../payments/health';
import { createAlertDelivery } from './delivery';
import { ALERT_SIGNATURE_HEADER } from './messages';
import { DEFAULT_ALERT_SETTINGS } from './settings';

let t: TestApp;
let receiver: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  receiver = undefined;
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

const MINUTE_MS = 60_000;
const BOT_TOKEN = '123456789:AAtestTokenForTheLocalStandIn_0123';

interface Received {
  body: string;
  signature: string | undefined;
}

/** A local HTTP receiver of the signed webhooks: keeps every body with its signature header. */
async function startReceiver(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ body, signature: request.headers[ALERT_SIGNATURE_HEADER] as string | undefined });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(receiver!.address() as AddressInfo).port}/alerts`, received };
}

function alertDelivery() {
  return createAlertDelivery({
    db: t.ctx.database.db,
    clock: t.clock,
    log: t.ctx.log,
    secretBox: t.ctx.secretBox,
    appName: t.config.APP_NAME,
    publicUrl: t.config.PUBLIC_URL,
    telegramDefaultUrl: () => `${t.ctx.loopback.origin}${TELEGRAM_STAND_IN_PREFIX}`,
    timeoutMs: 5000,
  });
}

/** Sends everything due, a bounded number of rounds. */
async function deliverAll() {
  const delivery = alertDelivery();
  for (let round = 0; round < 10; round += 1) if ((await delivery.run()) === 0) return;
}

/** An administrator who has saved these alert settings (the defaults with `changes`) through the console. */
async function adminWithSettings(changes: Partial<typeof DEFAULT_ALERT_SETTINGS>): Promise<TestUser> {
  const admin = await createUser(t, { admin: true });
  const saved = await t.app.inject({
    method: 'PUT',
    url: '/api/admin/alerts/settings',
    headers: admin.headers,
    payload: { ...DEFAULT_ALERT_SETTINGS, ...changes },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return admin;
}

async function buy(user: TestUser, countryId: string, service: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/dashboard/buy-number',
    headers: user.headers,
    payload: { countryID: countryId.toLowerCase(), operator: 'any', service },
  });
}

async function providerOf(orderId: number) {
  const [order] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, orderId));
  return order!.provider;
}

async function addChannels(admin: TestUser, webhookUrl: string) {
  const add = async (payload: Record<string, unknown>) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/alerts/channels',
      headers: admin.headers,
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { channel: { id: number }; secret?: string };
  };
  await add({ kind: 'email', name: 'Operators', addresses: ['ops@example.test'] });
  const webhook = await add({ kind: 'webhook', name: 'Pager', url: webhookUrl });
  await add({ kind: 'telegram', name: 'Ops chat', bot_token: BOT_TOKEN, chat_id: '-100200300' });
  expect(webhook.secret).toMatch(/^whsec_/);
  return { webhookSecret: webhook.secret! };
}

/** The alert messages each channel carried about one alert kind, by event. */
async function carried(kind: string, received: Received[]) {
  const mails = await t.ctx.database.db
    .select()
    .from(mailQueue)
    .where(eq(mailQueue.template, 'operator_alert'));
  const subjectOf = (event: 'Alert' | 'Resolved') => `${event}: ${kind.replaceAll('_', ' ')}`;
  const count = (event: 'Alert' | 'Resolved') => ({
    mail: mails.filter((row) =>
      String((row.payload as { subject: string }).subject).endsWith(subjectOf(event)),
    ).length,
    webhook: received.filter((item) => JSON.parse(item.body).text.includes(subjectOf(event))).length,
    telegram: t.ctx.telegram.messages().filter((message) => message.text.includes(subjectOf(event))).length,
  });
  return { opened: count('Alert'), resolved: count('Resolved') };
}

describe('supplier balances and operator alerts', () => {
  it('alerts once per channel when a supplier is drained, routes around it, and resolves after a top-up', {
    timeout: 120_000,
  }, async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b', SMS_ROUTING_PINS: 'US=sim-a' });
    const admin = await createUser(t, { admin: true });
    const buyer = await createUser(t);
    await fundUser(t.ctx.database, buyer.id, 100_000);
    const { url, received } = await startReceiver();
    const { webhookSecret } = await addChannels(admin, url);
    const offer = anOffer(t, 'US');

    // A funded supplier: no alert, purchases go where the pin says.
    await t.ctx.alerts.evaluate();
    const first = await buy(buyer, 'US', offer.service);
    expect(first.statusCode, first.body).toBe(200);
    expect(await providerOf(first.json().number.id)).toBe('sim-a');
    expect(await t.ctx.database.db.select().from(operatorAlerts)).toHaveLength(0);

    // Drained (by hand, not by spending: the series shows no spend rate, only the zero): the reading is zero.
    await simulatorControl(t, 'balance', { balanceUsd: 0 }, 'sim-a');
    await t.ctx.alerts.readBalances();
    // Several evaluations and delivery runs (as the timers would): each condition is alerted once.
    for (let run = 0; run < 3; run += 1) {
      await t.ctx.alerts.evaluate();
      await deliverAll();
      t.clock.advance(MINUTE_MS);
    }
    const open = await t.ctx.database.db.select().from(operatorAlerts);
    expect(open.map((alert) => alert.conditionKey).sort()).toEqual([
      'supplier_balance_low:sim-a',
      'supplier_out_of_routing:sim-a',
    ]);
    expect((await carried('supplier_balance_low', received)).opened).toEqual({
      mail: 1,
      webhook: 1,
      telegram: 1,
    });
    expect((await carried('supplier_out_of_routing', received)).opened).toEqual({
      mail: 1,
      webhook: 1,
      telegram: 1,
    });

    // Each webhook is signed: HMAC-SHA256 of the raw body under the secret shown once.
    for (const item of received) {
      const expected = `sha256=${createHmac('sha256', webhookSecret).update(item.body).digest('hex')}`;
      expect(item.signature).toBeDefined();
      expect(timingSafeEqual(Buffer.from(item.signature!), Buffer.from(expected))).toBe(true);
    }
    // The message says what, since when, and links to the console.
    const telegram = t.ctx.telegram.messages();
    expect(telegram.every((message) => message.chat.id === '-100200300')).toBe(true);
    const low = telegram.find((message) => message.text.includes('supplier balance low'))!;
    expect(low.text).toContain('Supplier sim-a: balance $0.00');
    expect(low.text).toContain('Since ');
    expect(low.text).toContain(`${t.config.PUBLIC_URL}/admin/alerts`);
    // The mail job renders the queued alert like any other mail, to the channel's address.
    const [mail] = await t.ctx.database.db
      .select()
      .from(mailQueue)
      .where(eq(mailQueue.template, 'operator_alert'));
    expect(mail!.toAddress).toBe('ops@example.test');
    const rendered = renderMail(
      'operator_alert',
      mail!.payload as unknown as MailPayloads['operator_alert'],
      {
        appName: t.config.APP_NAME,
        publicUrl: t.config.PUBLIC_URL,
        language: 'en',
      },
    );
    expect(rendered.subject).toContain('Alert: supplier');
    expect(rendered.text).toContain(t.config.PUBLIC_URL);
    // The bot token travels only in the Bot API's URL: never in what the console shows.
    const view = await t.app.inject({ url: '/api/admin/alerts', headers: admin.headers });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.body).not.toContain(BOT_TOKEN.split(':')[1]);
    expect(view.body).not.toContain(webhookSecret);
    expect(view.json().balances.find((row: { provider: string }) => row.provider === 'sim-a')).toMatchObject({
      balance_cents: 0,
      in_routing: false,
    });

    // At zero the supplier is out of routing: the purchase goes to the other one.
    expect(t.ctx.providers.routable('sim-a')).toBe(false);
    const second = await buy(buyer, 'US', offer.service);
    expect(second.statusCode, second.body).toBe(200);
    expect(await providerOf(second.json().number.id)).toBe('sim-b');

    // Topped up: the next reading brings it back and resolves both alerts, one message each per channel.
    await simulatorControl(t, 'balance', { balanceUsd: 500 }, 'sim-a');
    t.clock.advance(5 * MINUTE_MS);
    await t.ctx.alerts.readBalances();
    for (let run = 0; run < 3; run += 1) {
      await t.ctx.alerts.evaluate();
      await deliverAll();
      t.clock.advance(MINUTE_MS);
    }
    expect(t.ctx.providers.routable('sim-a')).toBe(true);
    const after = await t.ctx.database.db.select().from(operatorAlerts);
    expect(after.every((alert) => alert.resolvedAt !== null)).toBe(true);
    for (const kind of ['supplier_balance_low', 'supplier_out_of_routing']) {
      const messages = await carried(kind, received);
      expect(messages.opened).toEqual({ mail: 1, webhook: 1, telegram: 1 });
      expect(messages.resolved).toEqual({ mail: 1, webhook: 1, telegram: 1 });
    }
    const third = await buy(buyer, 'US', offer.service);
    expect(third.statusCode, third.body).toBe(200);
    expect(await providerOf(third.json().number.id)).toBe('sim-a');
  });

  it('takes a supplier that answers NO_BALANCE out of routing at once, until a reading shows money', {
    timeout: 60_000,
  }, async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b', SMS_ROUTING_PINS: 'US=sim-a' });
    const buyer = await createUser(t);
    await fundUser(t.ctx.database, buyer.id, 100_000);
    const offer = aFailoverOffer(t, 'US', 'sim-a', 'sim-b');
    await simulatorControl(t, 'balance', { balanceUsd: 0 }, 'sim-a');
    // No reading yet: the purchase meets NO_BALANCE at sim-a and fails over to sim-b.
    const first = await buy(buyer, 'US', offer.service);
    expect(first.statusCode, first.body).toBe(200);
    expect(await providerOf(first.json().number.id)).toBe('sim-b');
    expect(t.ctx.providers.routable('sim-a')).toBe(false);
    // A reading of the empty account keeps it out; one after the top-up brings it back.
    t.clock.advance(MINUTE_MS);
    await t.ctx.alerts.readBalances();
    await t.ctx.alerts.balances.applyToRouting();
    expect(t.ctx.providers.routable('sim-a')).toBe(false);
    await simulatorControl(t, 'balance', { balanceUsd: 100 }, 'sim-a');
    t.clock.advance(MINUTE_MS);
    await t.ctx.alerts.readBalances();
    await t.ctx.alerts.balances.applyToRouting();
    expect(t.ctx.providers.routable('sim-a')).toBe(true);
  });

  it('alerts when the balance will run out within the horizon at the current spend', async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a' });
    // $100 now, $90 an hour later: $10/h, nine hours left, inside the 24-hour horizon.
    await simulatorControl(t, 'balance', { balanceUsd: 100 });
    await t.ctx.alerts.readBalances();
    t.clock.advance(60 * MINUTE_MS);
    await simulatorControl(t, 'balance', { balanceUsd: 90 });
    await t.ctx.alerts.readBalances();
    await t.ctx.alerts.evaluate();
    const [alert] = await t.ctx.database.db
      .select()
      .from(operatorAlerts)
      .where(eq(operatorAlerts.conditionKey, 'supplier_balance_low:sim-a'));
    expect(alert!.evidence).toMatchObject({ balance_cents: 9000, spend_cents_per_hour: 1000, hours_left: 9 });
    expect(alert!.summary).toContain('runs out in about 9.0 h');
  });
});

describe('alert channels', () => {
  it('sends a channel at most its hourly allowance; the rest wait for the next hour', async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a' });
    const admin = await adminWithSettings({ channelMessagesPerHour: 2 });
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/admin/alerts/channels',
      headers: admin.headers,
      payload: { kind: 'telegram', name: 'Ops chat', bot_token: BOT_TOKEN, chat_id: '42' },
    });
    expect(added.statusCode, added.body).toBe(200);
    for (let index = 0; index < 3; index += 1) {
      await t.ctx.alerts.book.raise(
        {
          key: `payment_provider_down:test-${index}`,
          kind: 'payment_provider_down',
          summary: `Payment provider test-${index} is down.`,
          evidence: {},
          link: '/admin/payments',
          since: t.clock.now(),
        },
        t.clock.now(),
      );
    }
    await deliverAll();
    expect(t.ctx.telegram.messages()).toHaveLength(2);
    t.clock.advance(61 * MINUTE_MS);
    await deliverAll();
    expect(t.ctx.telegram.messages()).toHaveLength(3);
  });
});

describe('payment providers', () => {
  it('alerts the operators when a payment provider stops answering, and resolves it once it answers again', async () => {
    t = await createPaymentsTestApp();
    const admin = await createUser(t, { admin: true });
    const payer = await createUser(t);
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/admin/alerts/channels',
      headers: admin.headers,
      payload: { kind: 'telegram', name: 'Ops chat', bot_token: BOT_TOKEN, chat_id: '42' },
    });
    expect(added.statusCode, added.body).toBe(200);
    // What the Top Up page offers: asking is what finds out a provider's health.
    const offered = async () => {
      const response = await t.app.inject({ url: '/api/topup/methods', headers: payer.headers });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().providers as { provider: string }[]).map((entry) => entry.provider);
    };
    /** Evaluations and deliveries as the timers would run them; each change is told once. */
    const runJobs = async () => {
      for (let run = 0; run < 3; run += 1) {
        await t.ctx.alerts.evaluate();
        await deliverAll();
        t.clock.advance(MINUTE_MS);
      }
    };
    const paymentAlerts = () =>
      t.ctx.database.db.select().from(operatorAlerts).where(eq(operatorAlerts.kind, 'payment_provider_down'));
    const told = (event: 'Alert' | 'Resolved') =>
      t.ctx.telegram.messages().filter((message) => message.text.includes(`${event}: payment provider down`));

    expect(await offered()).toEqual(['cryptomus', 'nowpayments']);
    await runJobs();
    expect(await paymentAlerts()).toHaveLength(0);

    // The NOWPayments sandbox answers every merchant call with a 503 page.
    await nowPaymentsControl(t, 'fault', { down: true });
    t.clock.advance(PROBE_INTERVAL_MS);
    expect(await offered()).toEqual(['cryptomus']);
    await runJobs();
    const [open] = await paymentAlerts();
    expect(open).toMatchObject({
      conditionKey: 'payment_provider_down:nowpayments',
      link: '/admin/payments',
      resolvedAt: null,
      evidence: { provider: 'nowpayments', last_error: expect.stringContaining('HTTP 503') },
    });
    expect(told('Alert')).toHaveLength(1);
    expect(told('Alert')[0]!.text).toContain('nowpayments');
    const console_ = await t.app.inject({ url: '/api/admin/alerts', headers: admin.headers });
    expect(
      console_.json().alerts.filter((alert: { resolved_at: string | null }) => alert.resolved_at === null),
    ).toEqual([expect.objectContaining({ key: 'payment_provider_down:nowpayments' })]);

    // Cleared: the next probe finds it answering, and the alert resolves, told once.
    await nowPaymentsControl(t, 'fault', { down: false });
    t.clock.advance(PROBE_INTERVAL_MS);
    expect(await offered()).toEqual(['cryptomus', 'nowpayments']);
    await runJobs();
    const [resolved] = await paymentAlerts();
    expect(resolved!.id).toBe(open!.id);
    expect(resolved!.resolvedAt).not.toBeNull();
    expect(told('Alert')).toHaveLength(1);
    expect(told('Resolved')).toHaveLength(1);
  });
});

describe('abusive-buyer isolation', () => {
  it('throttles a buyer past the cancel threshold and alerts the operators, while another buyer buys', {
    timeout: 120_000,
  }, async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a' });
    const admin = await adminWithSettings({ buyerMaxCancels: 3, buyerWindowMinutes: 60 });
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/admin/alerts/channels',
      headers: admin.headers,
      payload: { kind: 'telegram', name: 'Ops chat', bot_token: BOT_TOKEN, chat_id: '42' },
    });
    expect(add.statusCode, add.body).toBe(200);
    const abuser = await createUser(t);
    const other = await createUser(t);
    await fundUser(t.ctx.database, abuser.id, 100_000);
    await fundUser(t.ctx.database, other.id, 100_000);
    const offer = anOffer(t, 'US');

    for (let index = 0; index < 3; index += 1) {
      const bought = await buy(abuser, 'US', offer.service);
      expect(bought.statusCode, bought.body).toBe(200);
      t.clock.advance(2 * MINUTE_MS + 1000);
      const cancelled = await t.app.inject({
        method: 'POST',
        url: `/api/dashboard/numbers/${bought.json().number.id}/cancel`,
        headers: abuser.headers,
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
    }

    const refused = await buy(abuser, 'US', offer.service);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, code: 'buyer_throttled' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(refused.json().retry_after).toBe(retryAfter);
    // Refusals in parallel hold and give back the money once each, and raise no second alert.
    const balanceBefore = await balanceOf(t.ctx.database.db, abuser.id);
    const parallel = await Promise.all(Array.from({ length: 10 }, () => buy(abuser, 'US', offer.service)));
    expect(parallel.map((response) => response.statusCode)).toEqual(Array(10).fill(429));
    expect(await balanceOf(t.ctx.database.db, abuser.id)).toBe(balanceBefore);

    const alerts = await t.ctx.database.db
      .select()
      .from(operatorAlerts)
      .where(and(eq(operatorAlerts.kind, 'buyer_throttled')));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.conditionKey).toBe(`buyer_throttled:user:${abuser.id}`);
    expect(alerts[0]!.evidence).toMatchObject({ user_id: abuser.id, cancels: 3, max_cancels: 3 });
    await deliverAll();
    const messages = t.ctx.telegram.messages().filter((message) => message.text.includes('buyer throttled'));
    expect(messages).toHaveLength(1);
    expect(messages[0]!.text).toContain(`Customer #${abuser.id} is throttled: 3 cancels`);

    // Another buyer is not looked at.
    const normal = await buy(other, 'US', offer.service);
    expect(normal.statusCode, normal.body).toBe(200);

    // Once the window has passed the buyer buys again, and the alert resolves.
    t.clock.advance(61 * MINUTE_MS);
    const again = await buy(abuser, 'US', offer.service);
    expect(again.statusCode, again.body).toBe(200);
    await t.ctx.alerts.evaluate();
    const [resolved] = await t.ctx.database.db
      .select()
      .from(operatorAlerts)
      .where(eq(operatorAlerts.id, alerts[0]!.id));
    expect(resolved!.resolvedAt).not.toBeNull();
  });

  it('throttles an API key whose numbers end without a code, names the key in the alert, and leaves other buyers be', {
    timeout: 120_000,
  }, async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a' });
    await adminWithSettings({
      buyerMaxNoCode: 2,
      buyerMaxCancels: 100,
      buyerWindowMinutes: 60,
    });
    const reseller = await createUser(t);
    await fundUser(t.ctx.database, reseller.id, 100_000);
    const offer = anOffer(t, 'US');
    const service = t.ctx.catalog.services('US').find((entry) => entry.service === offer.service)!.name;
    const key = await createApiKey(t, reseller);
    const careless = {
      key,
      api: createSimCodeClient({ baseUrl: t.ctx.loopback.origin, apiKey: key.secret }),
    };
    const order = (api: typeof careless.api) => api.POST('/orders', { body: { service, countries: ['US'] } });

    // Two numbers through one key, and no code comes for either: they end at their lifetime.
    for (let index = 0; index < 2; index += 1) expect((await order(careless.api)).response.status).toBe(201);
    t.clock.advance(21 * MINUTE_MS);
    await activationSync(t).run();

    const refused = await order(careless.api);
    expect(refused.response.status).toBe(429);
    expect(refused.error).toMatchObject({ success: false, code: 'buyer_throttled' });
    const [alert] = await t.ctx.database.db
      .select()
      .from(operatorAlerts)
      .where(eq(operatorAlerts.kind, 'buyer_throttled'));
    expect(alert!.conditionKey).toBe(`buyer_throttled:api_key:${careless.key.id}`);
    expect(alert!.evidence).toMatchObject({ api_key_id: careless.key.id, no_code: 2, max_no_code: 2 });
    // Another customer is not looked at.
    const other = await createUser(t);
    await fundUser(t.ctx.database, other.id, 10_000);
    expect((await buy(other, 'US', offer.service)).statusCode).toBe(200);
  });

  it('counts cancelled rents as a supplier does: a buyer who rents and cancels past the threshold is throttled', {
    timeout: 120_000,
  }, async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a' });
    await quietSimulator(t);
    await adminWithSettings({ buyerMaxCancels: 2, buyerWindowMinutes: 60 });
    const renter = await createUser(t);
    for (let index = 0; index < 2; index += 1) {
      const rent = await rentedNumber(t, renter, { fundCents: 10_000 });
      const cancelled = await rentAction(t, renter, rent.order_id!, 'cancel');
      expect(cancelled.statusCode, cancelled.body).toBe(200);
    }

    const refused = await buy(renter, 'US', anOffer(t, 'US').service);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'buyer_throttled' });
    const [alert] = await t.ctx.database.db
      .select()
      .from(operatorAlerts)
      .where(eq(operatorAlerts.kind, 'buyer_throttled'));
    expect(alert!.evidence).toMatchObject({ user_id: renter.id, cancels: 2 });
  });

  it('counts cancels the supplier refused as too early: past the threshold the buyer is throttled', {
    timeout: 120_000,
  }, async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a' });
    await adminWithSettings({ buyerMaxEarlyCancelRefusals: 2, buyerWindowMinutes: 60 });
    const hasty = await createUser(t);
    await fundUser(t.ctx.database, hasty.id, 100_000);
    const offer = anOffer(t, 'US');
    const bought = await buy(hasty, 'US', offer.service);
    expect(bought.statusCode, bought.body).toBe(200);
    // Cancelled at once, twice: the supplier refuses both (its no-cancel window), and the number stays.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const early = await t.app.inject({
        method: 'POST',
        url: `/api/dashboard/numbers/${bought.json().number.id}/cancel`,
        headers: hasty.headers,
      });
      expect(early.statusCode, early.body).toBe(409);
    }

    const refused = await buy(hasty, 'US', offer.service);
    expect(refused.statusCode, refused.body).toBe(429);
    const [alert] = await t.ctx.database.db
      .select()
      .from(operatorAlerts)
      .where(eq(operatorAlerts.kind, 'buyer_throttled'));
    expect(alert!.evidence).toMatchObject({ user_id: hasty.id, early_cancel_refusals: 2, cancels: 0 });
  });
});
