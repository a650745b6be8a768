import type { StatsRow } from '@simcode/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../../../test/support/app';
import { createUser } from '../../../../test/support/users';
import { type ActivationStatus, activationMessages, activations } from '../../../db/schema';
import { ALL, computeDeliveryStats, deliveryStatsJob, loadDeliveryStats } from './delivery-stats';

let t: TestApp;
afterEach(async () => {
  if (t) await closeTestApp(t);
});

const NOW = new Date(Date.UTC(2026, 10, 25, 12, 0, 0));
const MINUTE_MS = 60_000;

interface FixtureOrder {
  provider: string;
  service: string;
  countryId: string;
  operator?: string;
  status: ActivationStatus;
  /** Minutes from purchase to each SMS. */
  smsAfterSeconds?: number[];
  /** How long before NOW it was bought. */
  agoMs?: number;
  /** An SMS that came after the order closed: not a delivery. */
  lateSmsAfterSeconds?: number;
}

async function insertOrders(orders: FixtureOrder[]): Promise<void> {
  const user = await createUser(t);
  for (const [index, order] of orders.entries()) {
    const createdAt = new Date(NOW.getTime() - (order.agoMs ?? 60 * MINUTE_MS));
    const [row] = await t.ctx.database.db
      .insert(activations)
      .values({
        userId: user.id,
        provider: order.provider,
        providerActivationId: `${order.provider}-${index}`,
        countryId: order.countryId,
        operator: order.operator ?? 'any',
        service: order.service,
        phoneNumber: '15550000000',
        priceCents: 50,
        upstreamMaxPrice: '0.3',
        status: order.status,
        createdAt,
        expiresAt: new Date(createdAt.getTime() + 20 * MINUTE_MS),
      })
      .returning();
    const messages = [
      ...(order.smsAfterSeconds ?? []).map((seconds) => ({ seconds, late: false })),
      ...(order.lateSmsAfterSeconds === undefined
        ? []
        : [{ seconds: order.lateSmsAfterSeconds, late: true }]),
    ];
    for (const [position, { seconds, late }] of messages.entries()) {
      await t.ctx.database.db.insert(activationMessages).values({
        activationId: row!.id,
        code: String(1000 + position),
        text: `code ${1000 + position}`,
        receivedAt: new Date(createdAt.getTime() + seconds * 1000),
        dedupeKey: `k${position}`,
        late,
      });
    }
  }
}

function statOf(
  rows: Awaited<ReturnType<typeof loadDeliveryStats>>,
  key: { provider?: string; service?: string; countryId?: string; operator?: string },
) {
  return rows.find(
    (row) =>
      row.provider === (key.provider ?? ALL) &&
      row.service === (key.service ?? ALL) &&
      row.countryId === (key.countryId ?? ALL) &&
      row.operator === (key.operator ?? ALL),
  );
}

describe('delivery statistics', () => {
  it('counts settled orders of the last 7 days and the median time to the first code, per pair, provider and operator', async () => {
    t = await createTestApp();
    await insertOrders([
      // p1, tg in US: three with a code (30 s, 60 s, 90 s to the first one), one expired, one cancelled by
      // the user and one refused upstream (neither says anything about delivery).
      {
        provider: 'p1',
        service: 'tg',
        countryId: 'US',
        operator: 'tmobile',
        status: 'completed',
        smsAfterSeconds: [30, 400],
      },
      {
        provider: 'p1',
        service: 'tg',
        countryId: 'US',
        operator: 'tmobile',
        status: 'received',
        smsAfterSeconds: [60],
      },
      {
        provider: 'p1',
        service: 'tg',
        countryId: 'US',
        operator: 'att',
        status: 'completed',
        smsAfterSeconds: [90],
      },
      {
        provider: 'p1',
        service: 'tg',
        countryId: 'US',
        operator: 'att',
        status: 'expired',
        lateSmsAfterSeconds: 1500,
      },
      { provider: 'p1', service: 'tg', countryId: 'US', status: 'canceled' },
      { provider: 'p1', service: 'tg', countryId: 'US', status: 'failed' },
      // Still waiting: not settled yet.
      { provider: 'p1', service: 'tg', countryId: 'US', status: 'waiting', agoMs: MINUTE_MS },
      // Older than the window.
      {
        provider: 'p1',
        service: 'tg',
        countryId: 'US',
        status: 'expired',
        // The window is the index's: today and the 6 UTC days before it (from 11-19 00:00 here).
        agoMs: (6 * 24 + 12) * 60 * MINUTE_MS + MINUTE_MS,
      },
      // p2 sells the same pair: one with a code at 120 s, one expired.
      { provider: 'p2', service: 'tg', countryId: 'US', status: 'completed', smsAfterSeconds: [120] },
      { provider: 'p2', service: 'tg', countryId: 'US', status: 'expired' },
      // Another pair at p1.
      { provider: 'p1', service: 'wa', countryId: 'GB', status: 'expired' },
    ]);

    expect(await computeDeliveryStats(t.ctx.database.db, NOW)).toBeGreaterThan(0);
    const rows = await loadDeliveryStats(t.ctx.database.db);
    expect(statOf(rows, { provider: 'p1', service: 'tg', countryId: 'US' })).toMatchObject({
      orders: 4,
      delivered: 3,
      medianTimeToCodeMs: 60_000,
    });
    expect(statOf(rows, { provider: 'p1' })).toMatchObject({
      orders: 5,
      delivered: 3,
      medianTimeToCodeMs: 60_000,
    });
    expect(statOf(rows, { provider: 'p2' })).toMatchObject({
      orders: 2,
      delivered: 1,
      medianTimeToCodeMs: 120_000,
    });
    // Across providers, for the shop: four codes at 30, 60, 90 and 120 s in six settled orders; the median
    // by nearest rank, as the index takes it.
    expect(statOf(rows, { service: 'tg', countryId: 'US' })).toMatchObject({
      orders: 6,
      delivered: 4,
      medianTimeToCodeMs: 60_000,
    });
    expect(statOf(rows, { service: 'tg', countryId: 'US', operator: 'att' })).toMatchObject({
      orders: 2,
      delivered: 1,
      medianTimeToCodeMs: 90_000,
    });
    expect(statOf(rows, { provider: 'p1', service: 'wa', countryId: 'GB' })).toMatchObject({
      orders: 1,
      delivered: 0,
      medianTimeToCodeMs: null,
    });
    expect(rows.every((row) => row.computedAt.getTime() === NOW.getTime())).toBe(true);

    // A second run replaces the rows rather than adding to them.
    await computeDeliveryStats(t.ctx.database.db, NOW);
    expect(await loadDeliveryStats(t.ctx.database.db)).toHaveLength(rows.length);
  });

  it("shows on the dashboard the figure the index's 7 days show for the service and country", async () => {
    t = await createTestApp();
    t.clock.set(NOW);
    // Ten codes after 5.5, 10.5, ... 50.5 s and two expired, spread over the window's days.
    await insertOrders([
      ...Array.from({ length: 10 }, (_, index) => ({
        provider: index % 2 === 0 ? 'p1' : 'p2',
        service: 'tg',
        countryId: 'GB',
        status: 'completed' as const,
        smsAfterSeconds: [(index + 1) * 5 + 0.5],
        agoMs: index * 12 * 60 * MINUTE_MS,
      })),
      { provider: 'p1', service: 'tg', countryId: 'GB', status: 'expired', agoMs: 5 * 24 * 60 * MINUTE_MS },
      { provider: 'p2', service: 'tg', countryId: 'GB', status: 'expired' },
    ]);
    await computeDeliveryStats(t.ctx.database.db, NOW);
    t.ctx.catalog.useDeliveryFigures(await loadDeliveryStats(t.ctx.database.db));

    const index = await t.app.inject({ url: '/api/v1/stats?window=7d' });
    const row = (index.json().rows as StatsRow[]).find(
      (entry) => entry.service === 'tg' && entry.country === 'GB',
    );
    expect(row).toMatchObject({ settled: 12, with_code: 10, median_seconds: 25 });
    expect(t.ctx.catalog.deliveryOf('tg', 'GB')).toEqual({
      orders: row!.settled,
      delivered: row!.with_code,
      median_seconds: row!.median_seconds,
    });
  });

  it('gives routing every instance’s figures, plus this process’s deliveries since they were computed', async () => {
    t = await createTestApp();
    t.clock.set(NOW.getTime());
    const provider = t.ctx.providers.names[0]!;
    // 20 settled orders of the pair, 19 with a code after 40 s: more than enough for the pair to speak.
    await insertOrders(
      Array.from({ length: 20 }, (_, index) => ({
        provider,
        service: 'tg',
        countryId: 'US',
        status: index === 0 ? ('expired' as const) : ('completed' as const),
        smsAfterSeconds: index === 0 ? [] : [40],
      })),
    );
    const health = t.ctx.providers.health;
    expect(health.delivery(provider, 'tg', 'US')).toEqual({ rate: 0.5, timeToCodeMs: null });

    await deliveryStatsJob(t.ctx).run();
    expect(health.delivery(provider, 'tg', 'US')).toEqual({ rate: 20 / 22, timeToCodeMs: 40_000 });

    // Deliveries this process records afterwards count on top, until the next computation includes them.
    t.clock.advance(1000);
    health.recordDelivery(provider, { service: 'tg', countryId: 'US' }, false);
    expect(health.delivery(provider, 'tg', 'US').rate).toBeCloseTo(20 / 23, 10);
  });
});
