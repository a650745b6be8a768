import { readFileSync } from 'node:fs';
import { buyingMessages, english, FAVOURITES_MAX } from '@simcode/contract';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../../test/support/money';
import {
  anOffer,
  createListeningTestApp,
  simulatorControl,
  untilDelivered,
} from '../../../../test/support/upstream';
import { createUser, type TestUser } from '../../../../test/support/users';
import { activations, favourites, tickets } from '../../../db/schema';
import { balanceOf } from '../../accounts/ledger';
import { deliveryStatsJob } from './delivery-stats';

// Issue 17: a price held to what the buyer saw, another SMS, problem reports, favourites and recent
// purchases, every country of a service, and delivery figures beside the prices.

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

function post(user: TestUser, url: string, payload: unknown = {}) {
  return t.app.inject({ method: 'POST', url, headers: user.headers, payload: payload as object });
}

async function buyOne(user: TestUser, offer = anOffer(t)) {
  const response = await post(user, '/api/dashboard/buy-number', {
    countryID: offer.countryId,
    service: offer.service,
  });
  expect(response.statusCode).toBe(200);
  return response.json().number as { id: number; number_id: string };
}

async function upstreamIdOf(orderId: number): Promise<string> {
  const [order] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, orderId));
  return order!.providerActivationId!;
}

async function numberById(user: TestUser, id: number) {
  const list = (await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers })).json();
  return list.numbers.find((number: { id: number }) => number.id === id);
}

describe('price protection', () => {
  it('refuses a purchase whose price went up since it was shown, with the new price, and charges nothing', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const shown = (offer.priceCents - 1) / 100;
    const refused = await post(user, '/api/dashboard/buy-number', {
      countryID: offer.countryId,
      service: offer.service,
      price: shown,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      success: false,
      code: 'price_changed',
      price: offer.priceCents / 100,
    });
    expect(refused.json().error).toContain(`$${(offer.priceCents / 100).toFixed(2)}`);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000);
    expect(await t.ctx.database.db.select().from(activations)).toHaveLength(0);

    // Confirmed at the new price: charged exactly that.
    const confirmed = await post(user, '/api/dashboard/buy-number', {
      countryID: offer.countryId,
      service: offer.service,
      price: offer.priceCents / 100,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000 - offer.priceCents);
  });

  it('charges the lower price when it went down, and refuses a price that is not a number', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const cheaper = await post(user, '/api/dashboard/buy-number', {
      countryID: offer.countryId,
      service: offer.service,
      price: offer.priceCents / 100 + 1,
    });
    expect(cheaper.statusCode).toBe(200);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000 - offer.priceCents);
    for (const price of ['1.00', -1, 0, 1e9, null]) {
      const bad = await post(user, '/api/dashboard/buy-number', {
        countryID: offer.countryId,
        service: offer.service,
        price,
      });
      expect(bad.statusCode, String(price)).toBe(400);
      expect(bad.json().success).toBe(false);
    }
  });
});

describe('price protection on Replace', () => {
  it('refuses a repeat above the price its confirmation showed, and buys at or below it', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const first = await buyOne(user, offer);
    const balance = await balanceOf(t.ctx.database.db, user.id);
    const refused = await post(user, `/api/dashboard/numbers/${first.id}/repeat`, {
      price: (offer.priceCents - 1) / 100,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'price_changed', price: offer.priceCents / 100 });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(balance);
    const repeated = await post(user, `/api/dashboard/numbers/${first.id}/repeat`, {
      price: offer.priceCents / 100,
    });
    expect(repeated.statusCode).toBe(200);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(balance - offer.priceCents);
    const bad = await post(user, `/api/dashboard/numbers/${first.id}/repeat`, { price: 'cheap' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('finishing a number', () => {
  it('finishes a number with its code, once, frees it upstream, and refuses one without a code or of another user', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const stranger = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const number = await buyOne(user);
    const early = await post(user, `/api/dashboard/numbers/${number.id}/finish`);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ success: false, code: 'not_received' });

    await simulatorControl(t, 'sms', {
      activationId: await upstreamIdOf(number.id),
      code: '424242',
      text: 'Code 424242',
    });
    await untilDelivered(t, async () => (await numberById(user, number.id)).code, '424242');
    const balance = await balanceOf(t.ctx.database.db, user.id);
    expect((await post(stranger, `/api/dashboard/numbers/${number.id}/finish`)).statusCode).toBe(404);
    const [finished, again] = await Promise.all([
      post(user, `/api/dashboard/numbers/${number.id}/finish`),
      post(user, `/api/dashboard/numbers/${number.id}/finish`),
    ]);
    for (const answer of [finished, again]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json().number).toMatchObject({ status: 'completed', code: '424242' });
    }
    const calls = await t.ctx.activations.historyOf(number.id);
    expect(calls.filter((call) => call.action === 'finish' && call.outcome === 'ok')).toHaveLength(1);
    // Finishing is no refund: the money stays spent.
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(balance);
  });
});

describe('another SMS', () => {
  it('waits for the next code on a number that received one, at no charge, keeping every SMS', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const number = await buyOne(user);
    const balanceAfterPurchase = await balanceOf(t.ctx.database.db, user.id);

    const tooEarly = await post(user, `/api/dashboard/numbers/${number.id}/another-sms`);
    expect(tooEarly.statusCode).toBe(409);
    expect(tooEarly.json().error).toBe(buyingMessages.anotherSmsNeedsCode);

    const activationId = await upstreamIdOf(number.id);
    await simulatorControl(t, 'sms', { activationId, code: '111111', text: 'Code 111111' });
    await untilDelivered(t, async () => (await numberById(user, number.id)).code, '111111');

    const asked = await post(user, `/api/dashboard/numbers/${number.id}/another-sms`);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().number).toMatchObject({
      status: 'received',
      awaiting_another_sms: true,
      code: '111111',
    });
    const calls = await t.ctx.activations.historyOf(number.id);
    expect(calls.map((call) => [call.action, call.outcome])).toContainEqual(['another_sms', 'ok']);

    await simulatorControl(t, 'sms', { activationId, code: '222222', text: 'Code 222222' });
    await expect.poll(async () => (await numberById(user, number.id)).sms.length, { timeout: 5000 }).toBe(2);
    const after = await numberById(user, number.id);
    expect(after).toMatchObject({ code: '222222', awaiting_another_sms: false });
    expect(after.sms.map((sms: { text: string }) => sms.text)).toEqual(['Code 111111', 'Code 222222']);
    const status = await t.app.inject({
      url: `/api/dashboard/number-status/${number.number_id}`,
      headers: user.headers,
    });
    expect(status.json()).toMatchObject({ status: 'STATUS_OK:222222', code: '222222' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(balanceAfterPurchase);
  });

  it("answers 404 for another user's number and 409 once the number's time is over", async () => {
    t = await createListeningTestApp();
    const owner = await createUser(t);
    const stranger = await createUser(t);
    await fundUser(t.ctx.database, owner.id, 10_000);
    const number = await buyOne(owner);
    await simulatorControl(t, 'sms', { activationId: await upstreamIdOf(number.id), code: '333333' });
    await expect
      .poll(async () => (await numberById(owner, number.id)).code, { timeout: 5000 })
      .toBe('333333');
    expect((await post(stranger, `/api/dashboard/numbers/${number.id}/another-sms`)).statusCode).toBe(404);
    await t.ctx.database.db
      .update(activations)
      .set({ expiresAt: new Date(t.ctx.clock.now().getTime() - 1000) })
      .where(eq(activations.id, number.id));
    const ended = await post(owner, `/api/dashboard/numbers/${number.id}/another-sms`);
    expect(ended.statusCode).toBe(409);
    expect(ended.json().error).toBe(buyingMessages.anotherSmsEnded);
  });
});

describe('reporting a problem', () => {
  it('opens one ticket about the order, written out for support, that administrators see with the order', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const admin = await createUser(t, { admin: true });
    await fundUser(t.ctx.database, user.id, 10_000);
    const number = await buyOne(user);

    const reported = await post(user, `/api/dashboard/numbers/${number.id}/report`, {
      kind: 'code_rejected',
      note: 'WhatsApp says this code is\nnot right.',
    });
    expect(reported.statusCode).toBe(200);
    const ticketId = reported.json().ticket_id;
    const [ticket] = await t.ctx.database.db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(ticket).toMatchObject({ userId: user.id, activationId: number.id, status: 'open' });
    expect(ticket!.title).toContain(`#${number.id}`);
    expect(ticket!.description).toContain(buyingMessages.problemCodeRejected);
    expect(ticket!.description).toContain('not right.');
    // Times as people read them, in UTC, never a raw ISO stamp.
    expect(ticket!.description).toMatch(/\d{2}:\d{2}:\d{2} UTC/);
    expect(ticket!.description).not.toMatch(/AM|PM/);
    expect(ticket!.description).not.toMatch(/\d{4}-\d{2}-\d{2}T/);

    const again = await post(user, `/api/dashboard/numbers/${number.id}/report`, { kind: 'no_sms' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'already_reported', ticket_id: ticketId });

    const seenBySupport = await t.app.inject({
      url: `/api/tickets/admin/tickets/${ticketId}`,
      headers: admin.headers,
    });
    expect(seenBySupport.statusCode).toBe(200);
    expect(JSON.stringify(seenBySupport.json())).toContain(`"activation_id":${number.id}`);
  });

  it("refuses another user's order (404) and bad reports (400) without opening a ticket", async () => {
    t = await createListeningTestApp();
    const owner = await createUser(t);
    const stranger = await createUser(t);
    await fundUser(t.ctx.database, owner.id, 10_000);
    const number = await buyOne(owner);
    expect(
      (await post(stranger, `/api/dashboard/numbers/${number.id}/report`, { kind: 'no_sms' })).statusCode,
    ).toBe(404);
    for (const body of [
      {},
      { kind: 'angry' },
      { kind: 'no_sms', note: 'a\u0000b' },
      { kind: 'no_sms', note: 7 },
    ]) {
      const bad = await post(owner, `/api/dashboard/numbers/${number.id}/report`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await t.ctx.database.db.select().from(tickets)).toHaveLength(0);
  });
});

describe('favourites and recent purchases', () => {
  it('stars services and pairs, lists them with names, unstars, and offers the last different purchases', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const offer = anOffer(t);
    const put = (payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/dashboard/favourites',
        headers: user.headers,
        payload: payload as object,
      });

    expect((await put({ service: offer.service, starred: true })).statusCode).toBe(200);
    const both = await put({ service: offer.service, countryID: 'gb', starred: true });
    expect(both.json().favourites).toEqual([
      expect.objectContaining({ service: offer.service, countryID: null, country_name: null }),
      expect.objectContaining({ service: offer.service, countryID: 'GB', country_name: 'United Kingdom' }),
    ]);
    // Starring twice changes nothing.
    expect((await put({ service: offer.service, starred: true })).json().favourites).toHaveLength(2);
    const unstarred = await put({ service: offer.service, starred: false });
    expect(unstarred.json().favourites).toEqual([expect.objectContaining({ countryID: 'GB' })]);

    await buyOne(user, offer);
    await buyOne(user, offer);
    const listed = (await t.app.inject({ url: '/api/dashboard/favourites', headers: user.headers })).json();
    expect(listed.recent).toEqual([
      expect.objectContaining({ service: offer.service, countryID: offer.countryId, operator: 'any' }),
    ]);
  });

  it('refuses unknown services and countries, wrong types, and more than the limit', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const put = (payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/dashboard/favourites',
        headers: user.headers,
        payload: payload as object,
      });
    for (const body of [
      { service: 'nosuchsvc', starred: true },
      { service: anOffer(t).service, countryID: 'QQ', starred: true },
      { service: anOffer(t).service, starred: 'yes' },
      { service: 7, starred: true },
    ]) {
      const bad = await put(body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    await t.ctx.database.db.insert(favourites).values(
      Array.from({ length: FAVOURITES_MAX }, (_, index) => ({
        userId: user.id,
        service: `s${index}`,
        countryId: '',
      })),
    );
    const full = await put({ service: anOffer(t).service, starred: true });
    expect(full.statusCode).toBe(409);
    expect(full.json().error).toBe(buyingMessages.favouritesFull);
    const anonymous = await t.app.inject({ url: '/api/dashboard/favourites' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('buying by service', () => {
  it('lists every country selling a service at the prices of each country list, with delivery figures once orders settle, and each country its lowest price, stock and orders', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const offer = anOffer(t);
    const answer = await t.app.inject({
      url: `/api/dashboard/service-countries?service=${offer.service}`,
      headers: user.headers,
    });
    expect(answer.statusCode).toBe(200);
    const { countries } = answer.json();
    expect(countries.length).toBeGreaterThan(10);
    const us = countries.find((country: { countryID: string }) => country.countryID === offer.countryId);
    expect(us).toMatchObject({ price: offer.priceCents / 100, delivery: null });

    // One order that got its code: after the statistics job, the pair shows it in both lists.
    const number = await buyOne(user, offer);
    await simulatorControl(t, 'sms', { activationId: await upstreamIdOf(number.id), code: '444444' });
    await untilDelivered(t, async () => (await numberById(user, number.id)).code, '444444');
    await deliveryStatsJob(t.ctx).run();
    const after = await t.app.inject({
      url: `/api/dashboard/service-countries?service=${offer.service}`,
      headers: user.headers,
    });
    const pair = after
      .json()
      .countries.find((country: { countryID: string }) => country.countryID === offer.countryId);
    expect(pair.delivery).toMatchObject({ orders: 1, delivered: 1 });
    expect(pair.delivery.median_seconds).toBeGreaterThanOrEqual(0);
    const services = await t.app.inject({
      url: `/api/dashboard/services?countryID=${offer.countryId}`,
      headers: user.headers,
    });
    const listed = services.json().services.find((service: { id: string }) => service.id === offer.service);
    expect(listed.delivery).toMatchObject({ orders: 1, delivered: 1 });
    // "By country" gives each country its lowest price in stock, its stock, and the week's orders there.
    const inStock = services
      .json()
      .services.filter((service: { stock: number }) => service.stock > 0) as Array<{
      price: number;
      stock: number;
    }>;
    const country = (await t.app.inject({ url: '/api/dashboard/countries', headers: user.headers }))
      .json()
      .countries.find((entry: { id: string }) => entry.id === offer.countryId);
    expect(country).toMatchObject({
      fromPrice: Math.min(...inStock.map((service) => service.price)),
      stock: inStock.reduce((sum, service) => sum + service.stock, 0),
      orders: 1,
    });

    const unknown = await t.app.inject({
      url: '/api/dashboard/service-countries?service=nosuchsvc',
      headers: user.headers,
    });
    expect(unknown.statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/dashboard/service-countries?service=wa' })).statusCode).toBe(401);
  });
});

describe('reasons stored as codes', () => {
  it("are read in the reader's language", async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const number = await buyOne(user);
    await t.ctx.database.db
      .update(activations)
      .set({ status: 'expired', statusReason: 'expired' })
      .where(eq(activations.id, number.id));
    const inRussian = await t.app.inject({
      url: '/api/dashboard/numbers',
      headers: { ...user.headers, 'accept-language': 'ru-RU' },
    });
    expect(inRussian.json().numbers[0].status_reason).toBe(
      'За 20 минут SMS не пришло. Стоимость возвращена на баланс.',
    );
    const inEnglish = await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers });
    expect(inEnglish.json().numbers[0].status_reason).toBe(english.activationReasons.expired);
  });

  it('are what the migration makes of the sentences stored before, which keep reading the same', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const support = await buyOne(user);
    const odd = await buyOne(user);
    const sentence = (id: number, statusReason: string) =>
      t.ctx.database.db
        .update(activations)
        .set({ status: 'canceled', statusReason })
        .where(eq(activations.id, id));
    await sentence(support.id, english.activationReasons.refundedBySupport);
    await sentence(odd.id, 'A provider said something.');
    const migration = readFileSync(
      new URL('../../../db/migrations/0027_order_reason_codes.sql', import.meta.url),
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint'))
      await t.ctx.database.db.execute(sql.raw(statement));
    const stored = await t.ctx.database.db
      .select({ id: activations.id, statusReason: activations.statusReason })
      .from(activations);
    expect(Object.fromEntries(stored.map((row) => [row.id, row.statusReason]))).toEqual({
      [support.id]: 'refunded_by_support',
      [odd.id]: 'A provider said something.',
    });
    const listed = await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers });
    const reasons = Object.fromEntries(
      listed
        .json()
        .numbers.map((number: { id: number; status_reason: string }) => [number.id, number.status_reason]),
    );
    expect(reasons).toEqual({
      [support.id]: english.activationReasons.refundedBySupport,
      [odd.id]: 'A provider said something.',
    });
  });
});
