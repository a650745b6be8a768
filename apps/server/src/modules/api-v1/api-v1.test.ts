import { randomUUID } from 'node:crypto';
import { createSimCodeClient } from '@simcode/client';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { aRentOffer, quietSimulator } from '../../../test/support/rents';
import { assertParallelBuysKeepToCap, createApiKey } from '../../../test/support/reseller';
import {
  activationSync,
  anOffer,
  createListeningTestApp,
  simulatorControl,
} from '../../../test/support/upstream';
import { createUser, type TestUser } from '../../../test/support/users';
import { activations, apiKeys } from '../../db/schema';
import { balanceOf } from '../accounts/ledger';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

const TWENTY_ONE_MINUTES_MS = 21 * 60_000;

async function clientOf(user: TestUser, settings: Record<string, unknown> = {}) {
  const key = await createApiKey(t, user, settings);
  return { key, api: createSimCodeClient({ baseUrl: t.ctx.loopback.origin, apiKey: key.secret }) };
}

async function upstreamIdOf(orderId: number): Promise<string> {
  const [order] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, orderId));
  return order!.providerActivationId!;
}

describe('the JSON API through its generated client', () => {
  it('buys by names, answers a long-poll the moment the code is stored, and pages the orders', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 2000);
    const offer = anOffer(t, 'GB');
    const { api } = await clientOf(user);
    const service = t.ctx.catalog.services('GB').find((entry) => entry.service === offer.service)!.name;

    const offers = await api.GET('/offers', { params: { query: { country: 'United Kingdom', service } } });
    expect(offers.data?.data).toEqual([
      expect.objectContaining({ country: 'GB', service: offer.service, price: offer.priceCents / 100 }),
    ]);

    const idempotencyKey = randomUUID();
    const bought = await api.POST('/orders', {
      body: { service, countries: ['UK'] },
      headers: { 'idempotency-key': idempotencyKey },
    });
    expect(bought.response.status).toBe(201);
    const order = bought.data!;
    expect(order).toMatchObject({ country: 'GB', service: offer.service, status: 'waiting' });
    const replay = await api.POST('/orders', {
      body: { service, countries: ['UK'] },
      headers: { 'idempotency-key': idempotencyKey },
    });
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toEqual(order);
    const reused = await api.POST('/orders', {
      body: { service, countries: ['US'] },
      headers: { 'idempotency-key': idempotencyKey },
    });
    expect(reused.response.status).toBe(422);
    expect(reused.error).toMatchObject({ code: 'idempotency_key_reused', status: 422, success: false });
    expect(reused.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(2000 - offer.priceCents);

    const waiting = api.GET('/orders/{id}/code', {
      params: { path: { id: String(order.id) }, query: { wait: '30' } },
    });
    await simulatorControl(t, 'sms', {
      activationId: await upstreamIdOf(order.id),
      code: '271828',
      text: 'Code 271828',
    });
    const answered = await waiting;
    expect(answered.data).toEqual({ order_id: order.id, status: 'received', code: '271828' });

    const second = await api.POST('/orders', { body: { service: offer.service, country: 'GB' } });
    const firstPage = await api.GET('/orders', { params: { query: { limit: '1' } } });
    expect(firstPage.data?.data.map((entry) => entry.id)).toEqual([second.data!.id]);
    const nextPage = await api.GET('/orders', {
      params: { query: { limit: '1', cursor: firstPage.data!.next_cursor! } },
    });
    expect(nextPage.data?.data.map((entry) => entry.id)).toEqual([order.id]);
    const forged = await api.GET('/orders', { params: { query: { cursor: 'not-a-cursor' } } });
    expect(forged.response.status).toBe(400);

    const ledger = await api.GET('/ledger');
    expect(ledger.data?.data.filter((entry) => entry.kind === 'purchase')).toHaveLength(2);
    const balance = await api.GET('/balance');
    expect(balance.data?.balance).toBe((2000 - 2 * offer.priceCents) / 100);
  });

  it('pushes a code on the key’s event stream the moment it is stored', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const { key, api } = await clientOf(user);
    const order = (await api.POST('/orders', { body: { service: offer.service, country: 'GB' } })).data!;

    const stream = await fetch(`${t.ctx.loopback.origin}/api/v1/events`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    await simulatorControl(t, 'sms', {
      activationId: await upstreamIdOf(order.id),
      code: '161803',
      text: 'Code 161803',
    });
    let received = '';
    while (!received.includes('event: order')) received += (await reader.read()).value ?? '';
    const data = /event: order\ndata: (.*)\n/.exec(received)?.[1];
    expect(JSON.parse(data!)).toEqual({ order_id: order.id, code: '161803' });
    await reader.cancel();
  });

  it('keeps a key to its guards: a price ceiling, a stop after failed orders (and a resume), its scope', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 5000);
    const offer = anOffer(t, 'GB');

    const cheap = await clientOf(user, { max_price: Math.max(0.01, (offer.priceCents - 1) / 100) });
    const refused = await cheap.api.POST('/orders', { body: { service: offer.service, country: 'GB' } });
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'price_above_guard' });

    const careful = await clientOf(user, { stop_after_failures: 2 });
    for (let order = 0; order < 2; order += 1) {
      const bought = await careful.api.POST('/orders', { body: { service: offer.service, country: 'GB' } });
      expect(bought.response.status).toBe(201);
    }
    // Twenty minutes without a code: both orders end unpaid, and the key pauses itself.
    t.clock.advance(TWENTY_ONE_MINUTES_MS);
    await activationSync(t).run();
    const [paused] = await t.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, careful.key.id));
    expect(paused).toMatchObject({ failuresInARow: 2, pausedAt: expect.any(Date) });
    const stopped = await careful.api.POST('/orders', { body: { service: offer.service, country: 'GB' } });
    expect(stopped.response.status).toBe(403);
    expect(stopped.error).toMatchObject({ code: 'key_limit_reached' });
    const resumed = await t.app.inject({
      method: 'POST',
      url: `/api/dashboard/api-keys/${careful.key.id}/resume`,
      headers: user.headers,
    });
    expect(resumed.json().key).toMatchObject({ paused_at: null, failures_in_a_row: 0 });
    expect(
      (await careful.api.POST('/orders', { body: { service: offer.service, country: 'GB' } })).response
        .status,
    ).toBe(201);

    const reader = await clientOf(user, { scope: 'read' });
    const forbidden = await reader.api.POST('/orders', { body: { service: offer.service, country: 'GB' } });
    expect(forbidden.response.status).toBe(403);
    expect(forbidden.error).toMatchObject({ code: 'scope_forbidden' });
    expect((await reader.api.GET('/ledger')).response.status).toBe(200);

    const buyer = await clientOf(user, { scope: 'buy' });
    const own = (await buyer.api.POST('/orders', { body: { service: offer.service, country: 'GB' } })).data!;
    expect((await buyer.api.GET('/ledger')).response.status).toBe(403);
    const seen = await buyer.api.GET('/orders');
    expect(seen.data?.data.map((entry) => entry.id)).toEqual([own.id]);
    const elsewhere = (await reader.api.GET('/orders')).data!.data.find((entry) => entry.id !== own.id)!;
    const hidden = await buyer.api.GET('/orders/{id}', { params: { path: { id: String(elsewhere.id) } } });
    expect(hidden.response.status).toBe(404);
  });

  it('never lets parallel purchases through a key exceed its spending cap', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t, 'GB');
    await assertParallelBuysKeepToCap(t, user, {
      priceCents: offer.priceCents,
      fits: 5,
      attempts: 24,
      buy: async (secret) => {
        const api = createSimCodeClient({ baseUrl: t.ctx.loopback.origin, apiKey: secret });
        const bought = await api.POST('/orders', { body: { service: offer.service, country: 'GB' } });
        if (bought.response.status === 201) return true;
        expect(bought.response.status).toBe(403);
        expect(bought.error).toMatchObject({ code: 'key_limit_reached' });
        return false;
      },
    });
  });

  it('rents and renews through the key, counting the renewal against its caps', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 100_000);
    const offer = await aRentOffer(t, 'US', 24);
    const { api } = await clientOf(user);
    const rented = await api.POST('/rents', {
      body: { service: offer.service, country: 'US', period: '24 hours' },
    });
    expect(rented.response.status, JSON.stringify(rented.error)).toBe(201);
    const renewed = await api.POST('/rents/{id}/renew', {
      params: { path: { id: String(rented.data!.id) } },
      body: { hours: 24 },
    });
    expect(renewed.data?.status).toBe('renewed');
    const keys = (await t.app.inject({ url: '/api/dashboard/api-keys', headers: user.headers })).json().keys;
    expect(keys[0].spent_total).toBeCloseTo(renewed.data!.price, 2);
  });

  it('limits key lookups per address before any lookup: past it, even a live key not yet seen is refused', async () => {
    const lookupsPerMinute = 5;
    t = await createListeningTestApp({ RATE_LIMIT_API_KEY_LOOKUPS_PER_MINUTE: String(lookupsPerMinute) });
    const user = await createUser(t);
    // Both made first: a new key of the user drops the user's keys from memory.
    const known = await clientOf(user, { name: 'known' });
    const unseen = await clientOf(user, { name: 'unseen' });
    expect((await known.api.GET('/balance')).response.status).toBe(200);

    const balanceWith = (secret: string) =>
      fetch(`${t.ctx.loopback.origin}/api/v1/balance`, { headers: { authorization: `Bearer ${secret}` } });
    for (let lookup = 1; lookup < lookupsPerMinute; lookup += 1)
      expect((await balanceWith(`sc_${randomUUID()}`)).status).toBe(401);
    const guessed = await balanceWith(`sc_${randomUUID()}`);
    expect(guessed.status).toBe(429);
    expect(await guessed.json()).toMatchObject({ code: 'rate_limited' });
    // The limit comes before the lookup: a real key this process has not seen is refused like a guess.
    expect((await balanceWith(unseen.key.secret)).status).toBe(429);
    // A key it knows is accepted from memory.
    expect((await known.api.GET('/balance')).response.status).toBe(200);
  });
});
