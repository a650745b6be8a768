import type { PurchasedNumber } from '@simcode/contract';
import { and, eq, ne } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../../../test/support/app';
import { testDatabase } from '../../../../test/support/database';
import { createUser, type TestUser } from '../../../../test/support/users';
import { type ActivationStatus, activations } from '../../../db/schema';

let t: TestApp;
// Opening and migrating the worker's database is a hook's work, not a test's.
beforeAll(async () => {
  await testDatabase();
});
afterEach(async () => {
  if (t) await closeTestApp(t);
});

const DAY_MS = 86_400_000;
const STATUSES: ActivationStatus[] = ['waiting', 'completed', 'canceled', 'expired', 'failed', 'received'];

/**
 * Orders straight in the table (no money moves: the list reads only orders): order `i` has the i-th status
 * in turn, Telegram or WhatsApp alternately, and the last one was bought on 2026-11-20 at noon UTC, each
 * earlier one a day before the next.
 */
async function seedOrders(userId: number, count: number) {
  const noon = Date.parse('2026-11-20T12:00:00Z');
  await t.ctx.database.db.insert(activations).values(
    Array.from({ length: count }, (_, index) => ({
      userId,
      provider: 'test',
      providerActivationId: `history-${userId}-${index}`,
      countryId: 'US',
      service: index % 2 === 0 ? 'tg' : 'wa',
      phoneNumber: '12025550100',
      priceCents: 100 + index,
      upstreamMaxPrice: '0.5',
      status: STATUSES[index % STATUSES.length]!,
      createdAt: new Date(noon - (count - 1 - index) * DAY_MS),
      expiresAt: new Date(noon - (count - 1 - index) * DAY_MS + 20 * 60_000),
    })),
  );
}

async function allPages(user: TestUser, filters: string, limit: number) {
  const numbers: PurchasedNumber[] = [];
  let before: number | null = null;
  do {
    const url: string = `/api/dashboard/numbers?limit=${limit}${filters}${before === null ? '' : `&before=${before}`}`;
    const response = await t.app.inject({ url, headers: user.headers });
    expect(response.statusCode, response.body).toBe(200);
    const body: { numbers: PurchasedNumber[]; next_before: number | null } = response.json();
    numbers.push(...body.numbers);
    before = body.next_before;
  } while (before !== null);
  return numbers;
}

describe('GET /api/dashboard/numbers with filters', () => {
  it('pages the history by keyset, each order once, narrowed by state, status, service and UTC day', async () => {
    t = await createTestApp();
    const user = await createUser(t);
    const other = await createUser(t);
    await seedOrders(user.id, 30);
    await seedOrders(other.id, 6);

    const ended = await allPages(user, '&state=ended', 4);
    // 30 orders, 6 statuses in turn: 5 each; completed, canceled and expired are over (failed is never listed).
    expect(ended).toHaveLength(15);
    expect(new Set(ended.map((number) => number.id)).size).toBe(15);
    expect(ended.every((number) => ['completed', 'canceled', 'expired'].includes(number.status))).toBe(true);
    expect(ended.map((number) => number.id)).toEqual(
      [...ended.map((number) => number.id)].sort((a, b) => b - a),
    );

    const live = await allPages(user, '&state=live', 100);
    expect(live.map((number) => number.status).sort()).toEqual([
      ...Array(5).fill('received'),
      ...Array(5).fill('waiting'),
    ]);

    // Canceled orders are the 3rd of every 6, so all of them Telegram.
    const canceledTelegram = await allPages(user, '&status=canceled&service=tg', 2);
    expect(canceledTelegram).toHaveLength(5);
    expect(canceledTelegram.every((number) => number.service === 'tg' && number.status === 'canceled')).toBe(
      true,
    );
    expect(await allPages(user, '&status=canceled&service=wa', 2)).toEqual([]);
    // A status outside the asked state matches nothing.
    expect(await allPages(user, '&state=live&status=canceled', 10)).toEqual([]);

    // Orders 25 to 27 (completed, canceled, expired) were bought on Nov 16 to 18.
    const days = await allPages(user, '&from=2026-11-16&to=2026-11-18', 10);
    expect(days.map((number) => number.created_at.slice(0, 10))).toEqual([
      '2026-11-18',
      '2026-11-17',
      '2026-11-16',
    ]);

    // The spec's answer is unchanged for existing callers, with the cursor added; nobody sees another's.
    const whole = await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers });
    expect(whole.json()).toMatchObject({ success: true, next_before: null });
    expect(whole.json().numbers).toHaveLength(25);
    const othersOrders = await t.ctx.database.db
      .select({ id: activations.id })
      .from(activations)
      .where(and(eq(activations.userId, other.id), ne(activations.status, 'failed')));
    expect((await allPages(other, '', 100)).map((number) => number.id).sort()).toEqual(
      othersOrders.map((order) => order.id).sort(),
    );
  });

  it('refuses an unknown state or status, a malformed service or a backwards range with a 400', async () => {
    t = await createTestApp();
    const user = await createUser(t);
    for (const query of [
      'state=old',
      'status=failed',
      'service=TG!',
      'from=2026-11-02&to=2026-11-01',
      'to=2026-13-01',
    ]) {
      const response = await t.app.inject({ url: `/api/dashboard/numbers?${query}`, headers: user.headers });
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        error: expect.any(String),
        code: expect.any(String),
      });
    }
  });
});
