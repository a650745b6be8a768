import { protocolIds } from '@simcode/sms-activate-protocol';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import {
  aRentOffer,
  quietSimulator,
  rentAction,
  rentedNumber,
  upstreamRentId,
} from '../../../test/support/rents';
import { createApiKey, protocolCall } from '../../../test/support/reseller';
import {
  activationSync,
  aFailoverOffer,
  anOffer,
  createListeningTestApp,
  simulatorControl,
} from '../../../test/support/upstream';
import { createUser, type TestUser } from '../../../test/support/users';
import { activationMessages, activations, rentSmsMessages, rents, webhookDeliveries } from '../../db/schema';
import { balanceOf } from '../accounts/ledger';
import { GIVE_BACKS_PER_KEY_PER_HOUR } from './activations/give-back';
import { RENT_CATALOG_CALLS_PER_MINUTE } from './rents/catalog';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

const TWO_MINUTES_MS = 2 * 60_000;
/** Every mobile number of the United Kingdom: a phoneException that gives back each number bought there. */
const GB_MOBILE_PREFIXES = '4470,4471,4472,4473,4474,4475,4476,4477,4478,4479';

async function upstreamIdOf(orderId: number): Promise<string> {
  const [order] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, orderId));
  return order!.providerActivationId!;
}

async function buyThroughKey(secret: string, countryId = 'GB') {
  const offer = anOffer(t, countryId);
  const answer = await protocolCall(t, secret, 'getNumber', {
    service: protocolIds.serviceOf(offer.service),
    country: protocolIds.countryOf(countryId),
  });
  expect(answer.body).toMatch(/^ACCESS_NUMBER:/);
  return { id: Number(answer.body.split(':')[1]), phone: answer.body.split(':')[2]!, offer };
}

const deliveriesOf = (keyId: number) =>
  t.ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.apiKeyId, keyId));

/** Every event the user's pages and caches are told of, from now on. */
function eventsOf(user: TestUser) {
  const seen: unknown[] = [];
  t.ctx.events.subscribe(user.id, (event) => seen.push(event));
  return seen;
}

describe('nothing after the end of an order', () => {
  it('keeps an SMS that comes after a refund for audit only: no code, no webhook, no event', async () => {
    t = await createListeningTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const key = await createApiKey(t, user, { callback_url: 'http://127.0.0.1:9/hook' });
    const bought = await buyThroughKey(key.secret);
    const order = await t.ctx.activations.find(user.id, bought.id);
    // Refunded here while the provider still has the number (as when it is slow to end an expired one).
    await t.ctx.activations.refund(order!, ['waiting'], 'expired', 'expired');
    const events = eventsOf(user);

    await simulatorControl(t, 'sms', {
      activationId: order!.providerActivationId,
      code: '4242',
      text: 'Code 4242',
    });
    await expect
      .poll(async () => (await t.ctx.database.db.select().from(activationMessages)).length, { timeout: 5000 })
      .toBe(1);

    const [stored] = await t.ctx.database.db.select().from(activationMessages);
    expect(stored).toMatchObject({ code: '4242', late: true });
    expect(await deliveriesOf(key.id)).toEqual([]);
    expect(events).toEqual([]);
    expect((await protocolCall(t, key.secret, 'getStatus', { id: bought.id })).body).toBe('STATUS_CANCEL');
    // Counted for the operators beside the provider's health.
    const admin = await createUser(t, { admin: true });
    const console = await t.app.inject({ url: '/api/admin/providers', headers: admin.headers });
    const listed = (console.json() as { providers: Array<{ name: string; late_sms: number }> }).providers;
    expect(listed.find((provider) => provider.name === order!.provider)?.late_sms).toBe(1);
    expect(
      listed.filter((provider) => provider.name !== order!.provider).every((p) => p.late_sms === 0),
    ).toBe(true);
  });

  it('ends a rent refunded by support at the provider, and shows or sends nothing it gets later', async () => {
    t = await createListeningTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    await quietSimulator(t);
    const admin = await createUser(t, { admin: true });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const key = await createApiKey(t, user, { callback_url: 'http://127.0.0.1:9/hook' });
    const offer = await aRentOffer(t, 'US', 24);
    const rented = await protocolCall(t, key.secret, 'getRentNumber', {
      service: protocolIds.serviceOf(offer.service),
      country: protocolIds.countryOf('US'),
      rent_time: 24,
    });
    const rentId = JSON.parse(rented.body).phone.id as number;
    // The rent is past its free cancel window: the provider can only finish it.
    t.clock.advance(30 * 60_000);

    const refunded = await t.app.inject({
      method: 'POST',
      url: `/api/admin/rents/${rentId}/refund`,
      headers: admin.headers,
      payload: { reason: 'the number never worked', force: false },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const upstream = (await simulatorControl(t, 'state', {
      rentId: await upstreamRentId(t, String(rentId)),
    })) as {
      rent: { status: string };
    };
    expect(upstream.rent.status).toBe('finished');
    const history = await t.ctx.rentals.historyOf(rentId);
    expect(history.map((event) => [event.action, event.outcome])).toEqual(
      expect.arrayContaining([['finish', 'ok']]),
    );

    const [row] = await t.ctx.database.db.select().from(rents).where(eq(rents.id, rentId));
    const events = eventsOf(user);
    expect(
      await t.ctx.rentals.recordSms(row!, {
        from: 'Service',
        text: 'Your code 777777',
        receivedAt: t.clock.now(),
      }),
    ).toBe(false);
    const [stored] = await t.ctx.database.db.select().from(rentSmsMessages);
    expect(stored).toMatchObject({ late: true });
    const status = await t.app.inject({ url: `/api/dashboard/rent-status/${rentId}`, headers: user.headers });
    expect(status.json()).toMatchObject({ status: 'error', values: [] });
    expect(
      JSON.parse((await protocolCall(t, key.secret, 'getRentStatus', { id: rentId })).body),
    ).toMatchObject({
      status: 'error',
      message: 'STATUS_CANCEL',
    });
    expect(await deliveriesOf(key.id)).toEqual([]);
    expect(events).toEqual([]);
  });
});

describe('every spend through a key counts against its caps', () => {
  it('counts a renewal through a capped key, whatever key bought the rent', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 100_000);
    const buyer = await createApiKey(t, user, { name: 'buyer' });
    const offer = await aRentOffer(t, 'US', 4);
    const rented = await protocolCall(t, buyer.secret, 'getRentNumber', {
      service: protocolIds.serviceOf(offer.service),
      country: protocolIds.countryOf('US'),
      rent_time: 4,
    });
    const rentId = JSON.parse(rented.body).phone.id as number;
    const quote = await protocolCall(t, buyer.secret, 'getContinueRentPriceNumber', {
      id: rentId,
      rent_time: 4,
    });
    const renewalPrice = JSON.parse(quote.body).price as number;
    // Room for two renewals and a half under the cap of the key that renews.
    const capped = await createApiKey(t, user, { name: 'renewer', daily_cap: renewalPrice * 2.5 });

    const answers: string[] = [];
    for (let renewal = 0; renewal < 8; renewal += 1)
      answers.push(
        (await protocolCall(t, capped.secret, 'continueRentNumber', { id: rentId, rent_time: 4 })).body,
      );
    const renewed = answers.filter((answer) => answer.includes('"success"')).length;
    expect(JSON.parse(answers.at(-1)!)).toMatchObject({ status: 'error', message: 'NO_BALANCE' });

    const keys = (await t.app.inject({ url: '/api/dashboard/api-keys', headers: user.headers })).json().keys;
    const renewer = keys.find((entry: { id: number }) => entry.id === capped.id);
    expect(renewed).toBe(2);
    expect(renewer.spent_today).toBeCloseTo(renewalPrice * 2, 2);
    const log = (
      await t.app.inject({ url: `/api/dashboard/api-keys/${capped.id}/log`, headers: user.headers })
    ).json();
    expect(log.events.map((event: { kind: string }) => event.kind)).toContain('cap_refused');
  });
});

describe('no customer can stop rent sales for everyone', () => {
  it('keeps purchases and renewals working while one key browses every rent period', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const browser = await createUser(t);
    const buyer = await createUser(t);
    const key = await createApiKey(t, browser);
    const rent = await rentedNumber(t, buyer, { hours: 24 });

    for (let hours = 4; hours < 4 + RENT_CATALOG_CALLS_PER_MINUTE; hours += 1)
      await protocolCall(t, key.secret, 'getRentServicesAndCountries', { country: 12, rent_time: hours });

    const price = await t.app.inject({
      url: `/api/dashboard/rents/${rent.order_id}/renew-price?periodID=48`,
      headers: buyer.headers,
    });
    expect(price.statusCode, price.body).toBe(200);
    const renewed = await rentAction(t, buyer, rent.order_id!, 'renew', { periodID: 48 });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const another = await rentedNumber(t, buyer, { hours: 72 });
    expect(another.status).toBe('active');
  });
});

describe('phoneException', () => {
  it('cancels an excluded number at the provider before refunding it, once the provider allows', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const key = await createApiKey(t, user);
    const offer = anOffer(t, 'GB');
    const params = { service: protocolIds.serviceOf(offer.service), country: protocolIds.countryOf('GB') };
    // Every number of the country is excluded: each one bought is given back, and the buy ends NO_NUMBERS.
    const answer = await protocolCall(t, key.secret, 'getNumber', {
      ...params,
      phoneException: GB_MOBILE_PREFIXES,
    });
    expect(answer.body).toBe('NO_NUMBERS');

    const givenBack = await t.ctx.database.db.select().from(activations);
    expect(givenBack.length).toBeGreaterThan(0);
    // The provider refuses cancels in the first two minutes: the numbers are kept, not refunded yet.
    for (const order of givenBack)
      expect(order).toMatchObject({ status: 'waiting', givenBackAt: expect.any(Date) });
    const held = givenBack.reduce((sum, order) => sum + order.priceCents, 0);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - held);

    t.clock.advance(TWO_MINUTES_MS + 1000);
    await activationSync(t).run();
    for (const order of givenBack) {
      const upstream = (await simulatorControl(t, 'state', {
        activationId: await upstreamIdOf(order.id),
      })) as {
        activation: { status: string };
      };
      expect(upstream.activation.status).toBe('cancelled');
    }
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
    expect(t.ctx.providers.health.cancelsAtOnce(t.sms.name)).toBe(false);
  });

  it('stops buying for a key that gave back its hourly share of numbers, and only for that key', async () => {
    t = await createListeningTestApp({ SIMULATOR_EARLY_CANCEL_MS: '0' });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const key = await createApiKey(t, user, { name: 'picky' });
    const other = await createApiKey(t, user, { name: 'other' });
    const offer = anOffer(t, 'GB');
    const excludingEveryNumber = {
      service: protocolIds.serviceOf(offer.service),
      country: protocolIds.countryOf('GB'),
      phoneException: GB_MOBILE_PREFIXES,
    };
    const boughtThrough = async (apiKeyId: number) =>
      (await t.ctx.database.db.select().from(activations).where(eq(activations.apiKeyId, apiKeyId))).length;

    while ((await boughtThrough(key.id)) < GIVE_BACKS_PER_KEY_PER_HOUR)
      expect((await protocolCall(t, key.secret, 'getNumber', excludingEveryNumber)).body).toBe('NO_NUMBERS');
    expect(await boughtThrough(key.id)).toBe(GIVE_BACKS_PER_KEY_PER_HOUR);
    // Past the share nothing more is bought for the key; another key of the same account still buys.
    expect((await protocolCall(t, key.secret, 'getNumber', excludingEveryNumber)).body).toBe('NO_NUMBERS');
    expect(await boughtThrough(key.id)).toBe(GIVE_BACKS_PER_KEY_PER_HOUR);
    await protocolCall(t, other.secret, 'getNumber', excludingEveryNumber);
    expect(await boughtThrough(other.id)).toBeGreaterThan(0);
    // Every number given back was cancelled at once and refunded.
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);

    // An hour after the give-backs (the hour includes its first instant).
    t.clock.advance(60 * 60_000 + 1000);
    // The simulator's prices move by the hour: the catalog reads them again, as its job would.
    await t.ctx.catalog.refreshFromUpstream();
    await protocolCall(t, key.secret, 'getNumber', excludingEveryNumber);
    expect(await boughtThrough(key.id)).toBeGreaterThan(GIVE_BACKS_PER_KEY_PER_HOUR);
  });

  it('tries a supplier that cancels at once before one that refused an early cancel', async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b', SMS_ROUTING_PINS: 'GB=sim-a' });
    await simulatorControl(t, 'settings', { earlyCancelMs: 0 }, 'sim-b');
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const key = await createApiKey(t, user);
    const offer = aFailoverOffer(t, 'GB', 'sim-a', 'sim-b');
    const answer = await protocolCall(t, key.secret, 'getNumber', {
      service: protocolIds.serviceOf(offer.service),
      country: protocolIds.countryOf('GB'),
      phoneException: GB_MOBILE_PREFIXES,
    });
    expect(answer.body).toBe('NO_NUMBERS');

    const bought = await t.ctx.database.db.select().from(activations).orderBy(activations.id);
    // The pinned supplier first; once it refused to cancel at once, the one that does comes first.
    expect(bought.map((order) => order.provider)).toEqual(['sim-a', 'sim-b', 'sim-b']);
    expect(bought[0]).toMatchObject({ status: 'waiting', givenBackAt: expect.any(Date) });
    for (const order of bought.slice(1))
      expect(order).toMatchObject({ status: 'failed', statusReason: 'phone_exception' });
    expect(t.ctx.providers.health.cancelsAtOnce('sim-a')).toBe(false);
    expect(t.ctx.providers.health.cancelsAtOnce('sim-b')).toBe(true);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000 - bought[0]!.priceCents);
  });
});

describe('a cancel that loses a race', () => {
  it('answers every concurrent cancel of one order with ACCESS_CANCEL, and refunds once', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const key = await createApiKey(t, user);
    const bought = await buyThroughKey(key.secret);
    t.clock.advance(TWO_MINUTES_MS + 1000);

    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        protocolCall(t, key.secret, 'setStatus', { id: bought.id, status: 8 }),
      ),
    );
    expect(answers.map((answer) => answer.body)).toEqual(Array(10).fill('ACCESS_CANCEL'));
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
  });
});

describe('support at the provider', () => {
  it('answers 409, not 503, when the provider refuses to cancel a number that got its code', async () => {
    t = await createListeningTestApp();
    const admin = await createUser(t, { admin: true });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const key = await createApiKey(t, user);
    const bought = await buyThroughKey(key.secret);
    await simulatorControl(t, 'sms', {
      activationId: await upstreamIdOf(bought.id),
      code: '1234',
      text: 'Code 1234',
    });
    await expect
      .poll(async () => (await t.ctx.activations.find(user.id, bought.id))?.status)
      .toBe('received');
    t.clock.advance(TWO_MINUTES_MS + 1000);

    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${bought.id}/cancel-upstream`,
      headers: admin.headers,
      payload: { reason: 'checking the provider' },
    });
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json()).toMatchObject({ success: false, code: 'upstream_cannot_cancel' });
  });
});
