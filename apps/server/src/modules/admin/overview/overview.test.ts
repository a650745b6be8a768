import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../../../test/support/app';
import { createUser, type TestUser } from '../../../../test/support/users';
import { type ActivationStatus, activationMessages, activations, ledgerEntries } from '../../../db/schema';
import { applyLedgerChange } from '../../accounts/ledger';
import { businessHoursJob, HOUR_MS } from './rollup';
import { medianOf } from './service';

let t: TestApp;
afterEach(async () => {
  if (t) await closeTestApp(t);
});

const NOW = Date.UTC(2026, 10, 25, 15, 30, 0);

/** A ledger entry now (the ledger stamps its own time; the roll-up reads it like any other). */
async function ledger(
  userId: number,
  kind: 'purchase' | 'refund' | 'topup',
  amountCents: number,
  key: string,
) {
  await t.ctx.database.db.transaction((tx) =>
    applyLedgerChange(tx, {
      userId,
      amountCents,
      kind,
      referenceType: 'test',
      referenceId: key,
      idempotencyKey: key,
    }),
  );
}

async function order(
  user: TestUser,
  status: ActivationStatus,
  atMs: number,
  secondsToCode?: number,
  statusReason?: string,
) {
  const createdAt = new Date(atMs);
  const [row] = await t.ctx.database.db
    .insert(activations)
    .values({
      userId: user.id,
      provider: t.ctx.providers.names[0]!,
      countryId: 'US',
      service: 'tg',
      priceCents: 100,
      upstreamMaxPrice: '0.5',
      status,
      statusReason,
      createdAt,
      expiresAt: new Date(atMs + 20 * 60_000),
    })
    .returning();
  if (secondsToCode !== undefined)
    await t.ctx.database.db.insert(activationMessages).values({
      activationId: row!.id,
      code: '1234',
      text: 'code 1234',
      receivedAt: new Date(atMs + secondsToCode * 1000),
      dedupeKey: 'k',
    });
}

describe('the console overview', () => {
  it('adds up orders by outcome, delivery and time to code from the hourly figures', async () => {
    t = await createTestApp({ SMS_PROVIDER_USD_RATE: '1' });
    t.clock.set(NOW);
    const admin = await createUser(t, { admin: true });
    const user = await createUser(t);
    // Today: two with a code (30 s and 90 s), one expired, one cancelled, one refunded by support; yesterday: one with a code (60 s).
    const today = NOW - 2 * HOUR_MS;
    await order(user, 'completed', today, 30);
    await order(user, 'received', today + 60_000, 90);
    await order(user, 'expired', today + 120_000);
    await order(user, 'canceled', today + 180_000);
    // A support refund ends an order as canceled with support's reason: it is a refund, not a cancellation.
    await order(user, 'canceled', today + 240_000, undefined, 'refunded_by_support');
    await order(user, 'completed', NOW - 24 * HOUR_MS, 60);
    await businessHoursJob(t.ctx).run();

    const day = (await t.app.inject({ url: '/api/admin/overview?days=1', headers: admin.headers })).json();
    expect(day.totals).toMatchObject({
      orders_with_code: 2,
      orders_refunded: 2,
      orders_canceled: 1,
      delivery_rate: 2 / 4,
      cost: 1,
    });
    // The median of 30 s and 90 s, to the histogram's 5-second buckets.
    expect(day.totals.median_time_to_code_ms).toBe(32_500);
    expect(day.series).toHaveLength(16);
    expect(day.series[13]).toMatchObject({ orders_with_code: 2, orders_refunded: 2 });

    const week = (await t.app.inject({ url: '/api/admin/overview?days=7', headers: admin.headers })).json();
    expect(week.totals).toMatchObject({ orders_with_code: 3, cost: 1.5 });
    expect(week.series).toHaveLength(7);
    expect(week.series[5]).toMatchObject({ orders_with_code: 1 });
    expect(week.providers).toEqual([expect.objectContaining({ name: t.ctx.providers.names[0] })]);
    expect(
      (await t.app.inject({ url: '/api/admin/overview?days=2', headers: admin.headers })).statusCode,
    ).toBe(400);
  });

  it('counts revenue as sales less refunds, top-ups, and distinct active users', async () => {
    t = await createTestApp();
    const admin = await createUser(t, { admin: true });
    const users = [await createUser(t), await createUser(t)];
    t.clock.set(Date.now());
    for (const [index, user] of users.entries()) {
      await ledger(user.id, 'topup', 1000, `topup-${index}`);
      await ledger(user.id, 'purchase', -300, `buy-${index}`);
    }
    await ledger(users[0]!.id, 'refund', 300, 'refund-0');
    await businessHoursJob(t.ctx).run();
    const totals = (await t.app.inject({ url: '/api/admin/overview?days=1', headers: admin.headers })).json()
      .totals;
    expect(totals).toMatchObject({ revenue: 3, topups: 20, active_users: 2 });
    expect(await t.ctx.database.db.$count(ledgerEntries)).toBe(5);
  });

  it('reads the median from a histogram', () => {
    expect(medianOf([])).toBeNull();
    expect(medianOf([0, 1])).toBe(7_500);
    expect(medianOf([1, 0, 0, 1, 1])).toBe(17_500);
  });
});
