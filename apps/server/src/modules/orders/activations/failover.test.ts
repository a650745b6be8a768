import { and, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../../test/support/money';
import {
  activationSync,
  buyThroughApi,
  createListeningTestApp,
  simulatorControl,
} from '../../../../test/support/upstream';
import { createUser } from '../../../../test/support/users';
import { activations, ledgerEntries } from '../../../db/schema';
import type { ProviderOffer } from '../../../providers/sms/routing';
import { balanceOf } from '../../accounts/ledger';
import { ORPHAN_CANCEL_MS, PENDING_SETTLE_MS } from '../budget';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

/** mulberry32: the same failures on every run, yet spread like random ones. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** How late sim-a answers when it answers after our 1-second timeout. */
const LATE_ANSWER_MS = 1500;

/** Ways the failing supplier fails a purchase: refusals, provider errors, garbage and timeouts. */
const FAILURES = [
  { token: 'NO_NUMBERS' },
  { token: 'WRONG_MAX_PRICE', payload: '9.99' },
  { token: 'ERROR_SQL' },
  { token: 'NO_BALANCE' },
  { broken: 'html502' },
  { broken: 'garbage' },
  { broken: 'reset' },
  // Answers after our timeout: the purchase's outcome there is unknown, and a number may be issued there.
  { delayMs: LATE_ANSWER_MS },
] as const;

/**
 * A pair both suppliers sell with deep stock, where sim-a is the cheaper (so routing tries it first while
 * it is healthy) and sim-b's cost is within sim-a's price (so a purchase can fail over to it).
 */
function sharedPair(): { countryId: string; service: string } {
  for (const { id: countryId } of t.ctx.catalog.countries()) {
    for (const offer of t.ctx.catalog.services(countryId)) {
      const byProvider = new Map(offer.providerOffers.map((entry) => [entry.provider, entry]));
      const a = byProvider.get('sim-a');
      const b = byProvider.get('sim-b');
      const eligible = (first: ProviderOffer, next: ProviderOffer) =>
        first.priceCents < next.priceCents && next.costCents <= first.priceCents;
      if (a && b && a.stock >= 250 && b.stock >= 250 && eligible(a, b))
        return { countryId, service: offer.service };
    }
  }
  throw new Error('the two simulators share no deep pair within each other’s price');
}

/** The simulators' prices and stock drift with time: a fixed start makes the pair, and the run, the same each time. */
async function atFixedTime(): Promise<void> {
  t.clock.set(Date.UTC(2026, 10, 25, 12, 0, 0));
  await t.ctx.catalog.refreshFromUpstream();
}

function syncOf(provider: string) {
  return activationSync(t, { provider });
}

describe('two suppliers, one failing at random', () => {
  it('ends 200 purchases with a number from the other supplier or a refund, charging each order once', async () => {
    t = await createListeningTestApp({
      SMS_PROVIDERS: 'sim-a,sim-b',
      SIM_B_NO_SMS_RATE: '1',
      SMS_PROVIDER_TIMEOUT_MS: '1000',
      SMS_PROVIDER_FAILURES_TO_COOL: '3',
      SMS_PROVIDER_COOLDOWN_MS: '30000',
    });
    await atFixedTime();
    const pair = sharedPair();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1_000_000);
    const random = seededRandom(13);

    const outcomes: Array<{ status: number; provider?: string; cooling: boolean }> = [];
    let cooledDown = false;
    let probedBack = false;
    for (let purchase = 0; purchase < 200; purchase += 1) {
      await simulatorControl(t, 'clear-faults', {}, 'sim-a');
      const failing = random() < 0.5;
      if (failing) {
        const failure = FAILURES[Math.floor(random() * FAILURES.length)]!;
        await simulatorControl(t, 'fault', { action: 'getNumberV2', ...failure, times: 1 }, 'sim-a');
      }
      const coolingBefore = t.ctx.providers.health.isCooling('sim-a');
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/dashboard/buy-number',
        headers: user.headers,
        payload: { countryID: pair.countryId, service: pair.service },
      });
      const number = response.statusCode === 200 ? response.json().number : undefined;
      const [order] = number
        ? await t.ctx.database.db.select().from(activations).where(eq(activations.id, number.id))
        : [];
      outcomes.push({ status: response.statusCode, provider: order?.provider, cooling: coolingBefore });
      if (t.ctx.providers.health.isCooling('sim-a')) cooledDown = true;
      // A purchase served by sim-a after it had been cooled down is its probe that passed.
      if (cooledDown && !coolingBefore && order?.provider === 'sim-a') probedBack = true;
      // Time passes between purchases, so a cool-down ends and sim-a is probed again.
      t.clock.advance(3000);
    }

    // Every purchase got a number; none was lost to sim-a's failures.
    const statuses = outcomes.map((outcome) => outcome.status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const servedBy = (provider: string) => outcomes.filter((outcome) => outcome.provider === provider).length;
    expect(servedBy('sim-a') + servedBy('sim-b')).toBe(200);
    // sim-a, the cheaper, serves whenever healthy; it is sidelined a minute after "no numbers" for the pair
    // and cooled down after three failures in a row, so sim-b serves most.
    expect(servedBy('sim-b')).toBeGreaterThan(100);
    expect(servedBy('sim-a')).toBeGreaterThan(5);
    // While sim-a cooled down, purchases went straight to sim-b; afterwards sim-a was probed back in.
    expect(cooledDown).toBe(true);
    expect(probedBack).toBe(true);
    expect(
      outcomes.filter((outcome) => outcome.cooling).every((outcome) => outcome.provider === 'sim-b'),
    ).toBe(true);

    // Each order was charged once and never refunded (each got its number), at the price quoted.
    const charges = await t.ctx.database.db
      .select({ orderId: ledgerEntries.referenceId, count: sql<number>`count(*)`.mapWith(Number) })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, 'purchase'), eq(ledgerEntries.referenceType, 'activation')))
      .groupBy(ledgerEntries.referenceId);
    expect(charges).toHaveLength(200);
    expect(charges.every((charge) => charge.count === 1)).toBe(true);
    const orders = await t.ctx.database.db.select().from(activations);
    expect(orders.every((order) => order.status === 'waiting')).toBe(true);
    const spentCents = orders.reduce((sum, order) => sum + order.priceCents, 0);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1_000_000 - spentCents);

    // Numbers sim-a issued after we stopped waiting belong to no order: its sweep cancels them, and
    // never attaches them to anyone's order.
    const simA = syncOf('sim-a');
    // A purchase we gave up on may still be answered by sim-a (its fault answers 1.5 s late): it must have
    // issued that number before the sweeps look.
    await new Promise((resolve) => setTimeout(resolve, LATE_ANSWER_MS + 500));
    t.clock.advance(PENDING_SETTLE_MS);
    await simA.run();
    t.clock.advance(ORPHAN_CANCEL_MS + 10_000);
    await simA.run();
    const listed = await t.ctx.providers.get('sim-a').listActiveActivations(0);
    const ours = new Set(
      orders.filter((order) => order.provider === 'sim-a').map((order) => order.providerActivationId),
    );
    expect(listed.items.filter((item) => !ours.has(item.activationId))).toEqual([]);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1_000_000 - spentCents);
    // A cap, not an assertion: 200 purchases over HTTP, a fifth of them waiting out a timeout, on a busy machine.
  }, 180_000);

  it('asks a supplier again at the minimum price it names when the quoted price covers it, at no cost to the user', async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b' });
    await atFixedTime();
    const pair = sharedPair();
    const offer = t.ctx.catalog
      .services(pair.countryId)
      .find((entry) => entry.service === pair.service)!
      .providerOffers.find((entry) => entry.provider === 'sim-a')!;
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    // sim-a wants a little more than it listed, still under what the user is quoted.
    const minimum = (offer.upstreamCost * 1.05).toFixed(4);
    await simulatorControl(
      t,
      'fault',
      { action: 'getNumberV2', token: 'WRONG_MAX_PRICE', payload: minimum, times: 1 },
      'sim-a',
    );
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      headers: user.headers,
      payload: { countryID: pair.countryId, service: pair.service },
    });
    expect(response.statusCode).toBe(200);
    const [order] = await t.ctx.database.db.select().from(activations);
    expect(order).toMatchObject({ provider: 'sim-a', status: 'waiting', priceCents: offer.priceCents });
    expect(Number(order!.upstreamMaxPrice)).toBeCloseTo(Number(minimum), 4);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000 - offer.priceCents);
  });

  it('sends the repeat of a replaced number to the other supplier when it sells at the same price', async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b' });
    await atFixedTime();
    const pair = sharedPair();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      headers: user.headers,
      payload: { countryID: pair.countryId, service: pair.service },
    });
    expect(bought.statusCode).toBe(200);
    const [first] = await t.ctx.database.db.select().from(activations);
    expect(first).toMatchObject({ provider: 'sim-a' });
    const repeated = await t.app.inject({
      method: 'POST',
      url: `/api/dashboard/numbers/${first!.id}/repeat`,
      headers: user.headers,
    });
    expect(repeated.statusCode).toBe(200);
    const orders = await t.ctx.database.db.select().from(activations).orderBy(activations.id);
    expect(orders[1]).toMatchObject({ provider: 'sim-b', status: 'waiting', priceCents: first!.priceCents });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000 - 2 * first!.priceCents);
  });

  it('refunds once, with the last supplier’s reason, when every supplier fails', async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b' });
    await atFixedTime();
    const pair = sharedPair();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    await simulatorControl(t, 'fault', { action: 'getNumberV2', token: 'NO_NUMBERS', times: 0 }, 'sim-a');
    // sim-b speaks 5sim's protocol, where the purchase route is `buy`.
    await simulatorControl(t, 'fault', { action: 'buy', token: 'NO_NUMBERS', times: 0 }, 'sim-b');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      headers: user.headers,
      payload: { countryID: pair.countryId, service: pair.service },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ success: false, code: 'upstream_no_numbers' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000);
    const [order] = await t.ctx.database.db.select().from(activations);
    expect(order).toMatchObject({ status: 'failed' });
    const refunds = await t.ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.kind, 'refund'));
    expect(refunds).toHaveLength(1);
  });
});

describe('numbers a provider withdraws early', () => {
  it('are settled from the provider’s history in one call, without asking about each one', async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a' });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    await simulatorControl(t, 'settings', { smsDelayMinMs: 3_600_000, smsDelayMaxMs: 3_600_000 }, 'sim-a');
    const offer = t.ctx.catalog.services('US').find((entry) => entry.stock > 10)!;
    const bought = await buyThroughApi(t, user, offer.service);
    expect(bought.statusCode, bought.body).toBe(200);
    const [order] = await t.ctx.database.db.select().from(activations);
    // The provider withdraws the number; asking about it on its own would now get garbage.
    t.clock.advance(3 * 60_000);
    await t.ctx.providers.get('sim-a').cancelActivation(order!.providerActivationId!);
    await simulatorControl(t, 'fault', { action: 'getStatus', broken: 'garbage', times: 0 }, 'sim-a');
    await simulatorControl(t, 'fault', { action: 'getStatusV2', broken: 'garbage', times: 0 }, 'sim-a');
    await syncOf('sim-a').run();
    const [settled] = await t.ctx.database.db.select().from(activations);
    expect(settled).toMatchObject({
      status: 'expired',
      statusReason: 'withdrawn',
    });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000);
  });
});
