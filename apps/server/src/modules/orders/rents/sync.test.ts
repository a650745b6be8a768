import { rentMessages } from '@simcode/contract';
import { eq, isNotNull } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../../test/support/money';
import {
  aRentOffer,
  assertRentMoneySettled,
  HOUR_MS,
  quietSimulator,
  renewableBody,
  renewalRows,
  rentAction,
  rentedNumber,
  rentRequest,
  rentRow,
  rentSync,
  rentsOf,
  signInAgain,
  upstreamRentId,
} from '../../../../test/support/rents';
import { createListeningTestApp, simulatorControl } from '../../../../test/support/upstream';
import { createUser, type TestUser } from '../../../../test/support/users';
import { rentSmsMessages, rents } from '../../../db/schema';
import type { UserEvent } from '../../../db/user-events';
import { balanceOf } from '../../accounts/ledger';
import { RENT_CATALOG_CALLS_PER_MINUTE } from './catalog';
import { AUTO_RENEW_LEAD_MS, RENT_SYNC_MIN_INTERVAL_MS } from './sync';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await assertRentMoneySettled(t);
    vi.restoreAllMocks();
    signedIn = [];
    await closeTestApp(t);
  }
});

let signedIn: TestUser[] = [];

/** Moves both clocks and lets the simulator catch up (its SMS and ends are due by the clock). */
async function advance(ms: number) {
  t.clock.advance(ms);
  await t.simulator!.tick();
  for (const user of signedIn) await signInAgain(t, user);
}

async function aUser() {
  const user = await createUser(t);
  signedIn.push(user);
  return user;
}

describe('expiry', () => {
  it('marks a rent expired at its end date, tells the upstream, and then only Replace works', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await aUser();
    const rent = await rentedNumber(t, user, { hours: 4 });
    const sync = rentSync(t);
    await advance(4 * HOUR_MS - 60_000);
    await sync.run();
    expect((await rentRow(t, rent.id)).status).toBe('active');
    await advance(60_000);
    await sync.run();
    const row = await rentRow(t, rent.id);
    expect(row.status).toBe('expired');
    expect(row.upstreamClosedAt).not.toBeNull();
    const state = (await simulatorControl(t, 'state', {
      rentId: await upstreamRentId(t, rent.order_id),
    })) as {
      rent: { status: string };
    };
    expect(state.rent.status).toBe('finished');
    const paid = await balanceOf(t.ctx.database.db, user.id);

    const cancel = await rentAction(t, user, rent.order_id!, 'cancel');
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error).toBe(rentMessages.alreadyEnded);
    const renew = await rentAction(t, user, rent.order_id!, 'renew', { periodID: 24 });
    expect(renew.statusCode).toBe(409);
    expect(renew.json().error).toBe(rentMessages.cannotRenew);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(paid);
    expect((await rentAction(t, user, rent.order_id!, 'repeat')).statusCode).toBe(200);
    const status = (
      await t.app.inject({ url: `/api/dashboard/rent-status/${rent.order_id}`, headers: user.headers })
    ).json();
    expect(status).toMatchObject({ status: 'error', message: 'STATUS_FINISH' });
  });

  it('refunds a rent the upstream cancelled on its side', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await aUser();
    const rent = await rentedNumber(t, user, { fundCents: 5000 });
    await t.rents.cancelRent(await upstreamRentId(t, rent.order_id));
    await rentSync(t).run();
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(5000);
    const [listed] = await rentsOf(t, user);
    expect(listed).toMatchObject({
      status: 'canceled',
      status_reason: expect.stringMatching(/ended this rental early/),
    });
  });
});

describe('automatic renewal', () => {
  it('renews a renewable rent once, shortly before its end date, for the same period', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await aUser();
    const offer = await aRentOffer(t, 'US', 168);
    await fundUser(t.ctx.database, user.id, 100_000);
    const rent = (await rentRequest(t, user, renewableBody(offer, 1))).json().rent;
    expect(rent.auto_renew).toBe(true);
    const sync = rentSync(t);
    await advance(168 * HOUR_MS - AUTO_RENEW_LEAD_MS - 60_000);
    await sync.run();
    expect(await renewalRows(t, rent.id)).toEqual([]);
    await advance(2 * 60_000);
    const before = await balanceOf(t.ctx.database.db, user.id);
    await sync.run();
    await sync.run();
    await advance(2 * 60_000);
    await sync.run();
    const renewals = await renewalRows(t, rent.id);
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ status: 'done', automatic: true, hours: 168 });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(before - renewals[0]!.priceCents);
    const [listed] = await rentsOf(t, user);
    expect(listed).toMatchObject({ status: 'renewed', auto_renew_error: null });
    expect(new Date(listed!.end_date!).getTime() - new Date(rent.end_date).getTime()).toBe(168 * HOUR_MS);
  });

  it('tries again within the period when the rent catalog is busy, and renews', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await aUser();
    const offer = await aRentOffer(t, 'US', 168);
    await fundUser(t.ctx.database, user.id, 100_000);
    const rent = (await rentRequest(t, user, renewableBody(offer, 1))).json().rent;
    const sync = rentSync(t);
    await advance(168 * HOUR_MS - AUTO_RENEW_LEAD_MS + 60_000);

    // Renewal price reads take this minute's catalog budget (each period is read once, then cached).
    const row = await rentRow(t, rent.id);
    const upstreamRent = { ...row, providerRentId: row.providerRentId! };
    let refusal: unknown;
    for (let hours = 200; !refusal && hours < 200 + RENT_CATALOG_CALLS_PER_MINUTE; hours += 1)
      refusal = await t.ctx.orders.rents.catalog.renewalQuote(upstreamRent, hours).then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refusal).toMatchObject({ code: 'rent_catalog_busy' });
    await sync.run();
    expect(await renewalRows(t, rent.id)).toEqual([]);
    const [waiting] = await rentsOf(t, user);
    expect(waiting).toMatchObject({ status: 'active', auto_renew: true, auto_renew_error: null });

    // A minute later, still before the end date, the next tick renews it.
    await advance(60_000);
    await sync.run();
    const renewals = await renewalRows(t, rent.id);
    expect(renewals).toEqual([expect.objectContaining({ status: 'done', automatic: true, hours: 168 })]);
    const [listed] = await rentsOf(t, user);
    expect(listed).toMatchObject({ status: 'renewed', auto_renew_error: null });
  });

  it('leaves the rent to expire when the balance does not cover another period, and says why', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await aUser();
    const offer = await aRentOffer(t, 'US', 168);
    await fundUser(t.ctx.database, user.id, offer.priceCents + 1);
    const rent = (await rentRequest(t, user, renewableBody(offer, 1))).json().rent;
    const sync = rentSync(t);
    await advance(168 * HOUR_MS - 60_000);
    await sync.run();
    await sync.run();
    expect(await renewalRows(t, rent.id)).toEqual([]);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1);
    const [warned] = await rentsOf(t, user);
    expect(warned).toMatchObject({
      status: 'active',
      auto_renew: true,
      auto_renew_error: expect.stringMatching(/^Not renewed automatically: renewing costs \$\d+\.\d\d/),
    });
    await advance(60_000);
    await sync.run();
    const [ended] = await rentsOf(t, user);
    expect(ended).toMatchObject({ status: 'expired', auto_renew_error: warned!.auto_renew_error });
  });

  it('lets the owner switch it off and on for renewable rents only', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await aUser();
    const offer = await aRentOffer(t, 'US', 168);
    await fundUser(t.ctx.database, user.id, 100_000);
    const renewable = (await rentRequest(t, user, renewableBody(offer, 1))).json().rent;
    const off = await rentAction(t, user, renewable.order_id, 'auto-renew', { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().rent.auto_renew).toBe(false);
    const sync = rentSync(t);
    await advance(168 * HOUR_MS - 60_000);
    await sync.run();
    expect(await renewalRows(t, renewable.id)).toEqual([]);
    const on = await rentAction(t, user, renewable.order_id, 'auto-renew', { enabled: true });
    expect(on.json().rent.auto_renew).toBe(true);
    await sync.run();
    expect(await renewalRows(t, renewable.id)).toHaveLength(1);

    const longTerm = await rentedNumber(t, user);
    const refused = await rentAction(t, user, longTerm.order_id!, 'auto-renew', { enabled: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(rentMessages.notRenewable);
  });
});

describe('reading SMS from the upstream', () => {
  it('stores what the webhook missed, once, across pages, and tells the open pages', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await aUser();
    const rent = await rentedNumber(t, user);
    for (let index = 0; index < 60; index += 1) {
      await simulatorControl(t, 'sms', {
        rentId: await upstreamRentId(t, rent.order_id),
        from: 'Sender',
        text: `Message number ${index}`,
      });
    }
    const stored = () =>
      t.ctx.database.db.select().from(rentSmsMessages).where(eq(rentSmsMessages.rentId, rent.id));
    await expect.poll(async () => (await stored()).length, { timeout: 10_000 }).toBe(60);
    // As if every push had been lost.
    await t.ctx.database.db.delete(rentSmsMessages);
    const events: UserEvent[] = [];
    t.ctx.events.subscribe(user.id, (event) => events.push(event));

    const reads = vi.spyOn(t.rents, 'getRentState');
    await rentSync(t).run();
    expect(reads.mock.calls.map((call) => call[1])).toEqual([0, 1]);
    const messages = await stored();
    expect(messages).toHaveLength(60);
    expect(new Set(messages.map((message) => message.text)).size).toBe(60);
    await expect.poll(() => events.some((event) => event.type === 'rents')).toBe(true);

    // Read again a minute later: nothing new, one call, nothing stored twice.
    await advance(RENT_SYNC_MIN_INTERVAL_MS + 1000);
    await rentSync(t).run();
    expect(reads).toHaveBeenCalledTimes(3);
    expect(await stored()).toHaveLength(60);
  });

  it('reads live rents round-robin, the longest unread first, within its share of the upstream budget', async () => {
    t = await createListeningTestApp({ UPSTREAM_SYNC_BUDGET_PER_MINUTE: '10' });
    await quietSimulator(t);
    const user = await aUser();
    const offer = await aRentOffer(t);
    await fundUser(t.ctx.database, user.id, 100_000);
    for (let index = 0; index < 12; index += 1) {
      expect(
        (
          await rentRequest(t, user, {
            countryID: 'US',
            service: offer.key,
            period: '24 hours',
            periodID: 24,
          })
        ).statusCode,
      ).toBe(200);
    }
    const reads = vi.spyOn(t.rents, 'getRentState');
    const sync = rentSync(t);
    const syncedIds = async () =>
      (
        await t.ctx.database.db
          .select({ id: rents.id })
          .from(rents)
          .where(isNotNull(rents.lastSyncedAt))
          .orderBy(rents.id)
      ).map((row) => row.id);

    // 30 % of 10 calls a minute stay with the one-time numbers: 7 for the rents.
    await sync.run();
    expect(await syncedIds()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await sync.run();
    expect(reads).toHaveBeenCalledTimes(7);

    await advance(RENT_SYNC_MIN_INTERVAL_MS + 1000);
    await sync.run();
    expect(reads).toHaveBeenCalledTimes(14);
    // The five never read came first, then the two read longest ago.
    const providerIds = (await t.ctx.database.db.select().from(rents).orderBy(rents.id)).map(
      (row) => row.providerRentId,
    );
    expect(reads.mock.calls.slice(7).map((call) => call[0])).toEqual([
      ...providerIds.slice(7),
      ...providerIds.slice(0, 2),
    ]);

    // However long it runs, never more than its share in any minute.
    for (let second = 0; second < 300; second += 2) {
      await advance(2000);
      await sync.run();
    }
    expect(reads.mock.calls.length - 14).toBeLessThanOrEqual(7 * 5 + 7);
    // The activations' share stays theirs.
    expect(t.upstreamBudget.remaining('activations')).toBeGreaterThanOrEqual(3);
  });
});
