import { RENEWABLE_UNITS, type Rent } from '@simcode/contract';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../src/db/client';
import { ledgerEntries, rentRenewals, rents } from '../../src/db/schema';
import { createRentalSync } from '../../src/modules/orders/rents/sync';
import { createUsersRepository } from '../../src/modules/users/repository';
import type { TestApp } from './app';
import { fundUser } from './money';
import { simulatorControl } from './upstream';
import type { TestUser } from './users';

export const HOUR_MS = 3_600_000;

/** The simulator sends a rented number its first SMS at once in tests; this keeps rents quiet until told. */
export async function quietSimulator(t: TestApp): Promise<void> {
  await simulatorControl(t, 'settings', { smsDelayMinMs: 1000 * HOUR_MS, smsDelayMaxMs: 1000 * HOUR_MS });
}

/** The provider's id of a rent, from its public order id: what the simulator's controls name it by. */
export async function upstreamRentId(t: TestApp, orderId: string | null): Promise<string> {
  const [row] = await t.ctx.database.db
    .select()
    .from(rents)
    .where(eq(rents.id, Number(orderId)));
  if (!row?.providerRentId) throw new Error(`rent ${orderId} has no provider id`);
  return row.providerRentId;
}

/** The rent option with the most numbers in stock in a country for a period, so tests can rent many. */
export async function aRentOffer(t: TestApp, countryId = 'US', hours = 24) {
  const offers = await t.ctx.rentals.catalog.offers(countryId, hours, 'purchase');
  const offer = offers.reduce((best, entry) => (entry.stock > best.stock ? entry : best));
  if (offer.stock < 20) throw new Error(`not enough rent stock in ${countryId}`);
  return { countryId, key: offer.key, service: offer.service, priceCents: offer.priceCents };
}

export function longTermBody(offer: { countryId: string; key: string }, hours = 24) {
  return {
    country: 'United States',
    countryID: offer.countryId,
    service: offer.key,
    period: `${hours} hours`,
    periodID: hours,
  };
}

export function renewableBody(offer: { countryId: string; key: string }, weeks = 1, autoRenew?: boolean) {
  return {
    countryID: offer.countryId,
    service: offer.key,
    period: `${weeks} week${weeks === 1 ? '' : 's'}`,
    periodID: RENEWABLE_UNITS.week.hours * weeks,
    ...(autoRenew === undefined ? {} : { autoRenew }),
  };
}

export function rentRequest(t: TestApp, user: TestUser, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/dashboard/rent-number',
    headers: user.headers,
    payload: body as object,
  });
}

export function rentAction(
  t: TestApp,
  user: TestUser,
  orderId: string,
  action: 'cancel' | 'repeat' | 'renew' | 'auto-renew',
  payload?: object,
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/dashboard/rents/${orderId}/${action}`,
    headers: user.headers,
    ...(payload ? { payload } : {}),
  });
}

/** Funds the user and rents a long-term number; returns the API's rent. */
export async function rentedNumber(
  t: TestApp,
  user: TestUser,
  options: { fundCents?: number; hours?: number } = {},
): Promise<Rent> {
  const offer = await aRentOffer(t, 'US', options.hours ?? 24);
  await fundUser(t.ctx.database, user.id, options.fundCents ?? 10_000);
  const response = await rentRequest(t, user, longTermBody(offer, options.hours ?? 24));
  expect(response.statusCode, response.body).toBe(200);
  return response.json().rent as Rent;
}

export async function rentsOf(t: TestApp, user: TestUser): Promise<Rent[]> {
  const response = await t.app.inject({ url: '/api/dashboard/rents', headers: user.headers });
  expect(response.statusCode).toBe(200);
  return response.json().rents;
}

/** Signs the user in again: a token lives a day, and these tests move the clock by weeks. */
export async function signInAgain(t: TestApp, user: TestUser): Promise<void> {
  const row = await createUsersRepository(t.ctx.database.db).findById(user.id);
  const token = await t.ctx.auth.issueToken(row!);
  user.token = token;
  user.headers.authorization = `Bearer ${token}`;
}

export function rentSync(t: TestApp) {
  return createRentalSync({ rents: t.ctx.orders.rents, provider: t.rents, budget: t.upstreamBudget });
}

export async function rentRow(t: TestApp, id: number) {
  const [row] = await t.ctx.database.db.select().from(rents).where(eq(rents.id, id));
  return row!;
}

export async function renewalRows(t: TestApp, rentId: number) {
  return t.ctx.database.db.select().from(rentRenewals).where(eq(rentRenewals.rentId, rentId));
}

export async function ledgerOf(t: TestApp, userId: number) {
  return t.ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId));
}

/**
 * Every purchase of a rent or renewal is refunded at most once, and exactly when its final state says
 * it was refunded: no cent created or lost, whatever raced.
 */
export async function assertRentMoneySettled(t: TestApp): Promise<void> {
  const rows = await queryRows<{
    reference_type: string;
    reference_id: string;
    purchases: string;
    refunds: string;
    status: string;
  }>(
    t.ctx.database.db,
    sql`select l.reference_type, l.reference_id,
          count(*) filter (where l.kind = 'purchase')::text as purchases,
          count(*) filter (where l.kind = 'refund')::text as refunds,
          coalesce(r.status, n.status) as status
        from ledger_entries l
        left join rents r on l.reference_type = 'rent' and r.id::text = l.reference_id
        left join rent_renewals n on l.reference_type = 'rent_renewal' and n.id::text = l.reference_id
        where l.reference_type in ('rent', 'rent_renewal')
        group by l.reference_type, l.reference_id, r.status, n.status`,
  );
  for (const row of rows) {
    const label = `${row.reference_type} ${row.reference_id} (${row.status})`;
    expect(Number(row.purchases), label).toBe(1);
    const refunded = ['canceled', 'failed', 'refunded'].includes(row.status);
    expect(Number(row.refunds), label).toBe(refunded ? 1 : 0);
  }
}
