import { ACTIVATION_LIFETIME_MS } from '@simcode/contract';
import { and, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { quietSimulator, rentAction, rentedNumber } from '../../../test/support/rents';
import {
  activationSync,
  anOffer,
  createListeningTestApp,
  simulatorControl,
} from '../../../test/support/upstream';
import { createUser, type TestUser } from '../../../test/support/users';
import {
  activations,
  auditLog,
  businessHours,
  liveActivationStatuses,
  rentRenewals,
  rents,
  supplierBalanceReadings,
  supplierCharges,
} from '../../db/schema';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

const MINUTE_MS = 60_000;
/** Orders per supplier: codes, no codes, cancels, early-cancel refusals and late SMS, a fifth each. */
const ORDERS_PER_SUPPLIER = 120;
const ROGUE_PER_SUPPLIER = 3;
const SUPPLIERS = [
  { name: 'sim-a', country: 'GB' },
  { name: 'sim-b', country: 'US' },
] as const;
type Outcome = 'code' | 'no_code' | 'cancel' | 'early_cancel' | 'late_sms';
const OUTCOMES: readonly Outcome[] = ['code', 'no_code', 'cancel', 'early_cancel', 'late_sms'];

interface Placed {
  supplier: string;
  orderId: number;
  upstreamId: string;
  outcome: Outcome;
}

interface Expected {
  provider: string;
  provider_order_id: string;
  cause: string;
  amount_cents: number;
}

async function simState(supplier: string, activationId: string) {
  const { activation } = (await simulatorControl(t, 'state', { activationId }, supplier)) as {
    activation: { costUsd: number; status: string };
  };
  return activation;
}

async function ordersIn(statuses: readonly string[]) {
  return t.ctx.database.db
    .select()
    .from(activations)
    .where(inArray(activations.status, [...statuses] as (typeof liveActivationStatuses)[number][]));
}

/** Runs both suppliers' syncs until `done` holds (each run is one sweep within the budget). */
async function syncUntil(done: () => Promise<boolean>) {
  const syncs = SUPPLIERS.map((supplier) => activationSync(t, { provider: supplier.name }));
  for (let round = 0; round < 40; round += 1) {
    if (await done()) return;
    for (const sync of syncs) await sync.run();
    t.clock.advance(3000);
  }
  throw new Error('the syncs did not settle the orders');
}

async function waitForReceived(orderIds: number[]) {
  await expect
    .poll(
      async () =>
        (await t.ctx.database.db.select().from(activations).where(inArray(activations.id, orderIds))).every(
          (order) => order.status === 'received',
        ),
      { timeout: 10_000 },
    )
    .toBe(true);
}

describe('reconciling what the suppliers charged and returned', () => {
  it('finds exactly the mismatches a day of orders through both simulators caused, to the cent', {
    timeout: 180_000,
  }, async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b', SMS_ROUTING_PINS: 'GB=sim-a,US=sim-b' });
    // One UTC day from start to end: 01:00 tomorrow.
    const tomorrow = new Date(t.clock.now().getTime() + 24 * 60 * MINUTE_MS);
    const t0 = Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate(), 1);
    t.clock.set(t0);
    await t.ctx.catalog.refreshFromUpstream();
    // The suppliers' balances at the start of the day's business, as the balance job reads them.
    await t.ctx.alerts.readBalances();
    const day = new Date(t0).toISOString().slice(0, 10);
    const buyer: TestUser = await createUser(t);
    await fundUser(t.ctx.database, buyer.id, 1_000_000);

    const placed: Placed[] = [];
    for (const supplier of SUPPLIERS) {
      const offer = anOffer(t, supplier.country);
      for (let index = 0; index < ORDERS_PER_SUPPLIER; index += 1) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/dashboard/buy-number',
          headers: buyer.headers,
          payload: { countryID: supplier.country.toLowerCase(), operator: 'any', service: offer.service },
        });
        expect(response.statusCode, response.body).toBe(200);
        const orderId = response.json().number.id as number;
        const [order] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, orderId));
        expect(order!.provider).toBe(supplier.name);
        placed.push({
          supplier: supplier.name,
          orderId,
          upstreamId: order!.providerActivationId!,
          outcome: OUTCOMES[index % OUTCOMES.length]!,
        });
      }
    }
    const cancel = (order: Placed) =>
      t.app.inject({
        method: 'POST',
        url: `/api/dashboard/numbers/${order.orderId}/cancel`,
        headers: buyer.headers,
      });
    const having = (outcome: Outcome) => placed.filter((order) => order.outcome === outcome);

    // Early cancels are refused: the numbers stay, and end at their lifetime.
    for (const order of having('early_cancel')) expect((await cancel(order)).statusCode).toBe(409);

    // Codes a minute in: sim-a pushes them, 5sim's are read by the sync.
    t.clock.advance(MINUTE_MS);
    for (const order of having('code')) {
      await simulatorControl(t, 'sms', { activationId: order.upstreamId, code: '424242' }, order.supplier);
    }
    const coded = having('code').map((order) => order.orderId);
    await syncUntil(async () =>
      (await t.ctx.database.db.select().from(activations).where(inArray(activations.id, coded))).every(
        (order) => order.status === 'received',
      ),
    );

    // Cancels once allowed: both sides give the money back.
    t.clock.advance(2 * MINUTE_MS);
    for (const order of having('cancel')) expect((await cancel(order)).statusCode).toBe(200);

    // Numbers bought straight at the suppliers with our key, outside any order: some billed, some cancelled.
    const expected: Expected[] = [];
    const unbilled: Array<{ supplier: string; activationId: string }> = [];
    for (const supplier of SUPPLIERS) {
      const upstream = t.ctx.providers.get(supplier.name);
      const offer = anOffer(t, supplier.country);
      for (let index = 0; index < ROGUE_PER_SUPPLIER * 2; index += 1) {
        const bought = await upstream.buyActivation({
          service: offer.service,
          countryId: supplier.country,
          maxPrice: 100,
        });
        if (index % 2 === 0) {
          await simulatorControl(
            t,
            'sms',
            { activationId: bought.activationId, code: '999999' },
            supplier.name,
          );
          await upstream.finishActivation(bought.activationId);
          const { costUsd } = await simState(supplier.name, bought.activationId);
          expected.push({
            provider: supplier.name,
            provider_order_id: bought.activationId,
            cause: 'charged_without_order',
            amount_cents: Math.round(costUsd * 100),
          });
        } else {
          unbilled.push({ supplier: supplier.name, activationId: bought.activationId });
        }
      }
    }
    t.clock.advance(2 * MINUTE_MS + 1000);
    for (const rogue of unbilled)
      await t.ctx.providers.get(rogue.supplier).cancelActivation(rogue.activationId);

    // Late SMS, half a minute before the end of the lifetime: sim-a pushes it and the buyer gets it; 5sim
    // pushes nothing, and the next sweep finds the order ended with the code in its history: the code wins
    // (the buyer gets it, the supplier bills it), so nothing leaks.
    t.clock.set(t0 + ACTIVATION_LIFETIME_MS - 30_000);
    for (const order of having('late_sms')) {
      await simulatorControl(t, 'sms', { activationId: order.upstreamId, code: '777777' }, order.supplier);
    }
    await waitForReceived(
      having('late_sms')
        .filter((order) => order.supplier === 'sim-a')
        .map((o) => o.orderId),
    );
    t.clock.set(t0 + ACTIVATION_LIFETIME_MS + MINUTE_MS);
    await syncUntil(async () => (await ordersIn(liveActivationStatuses)).length === 0);
    for (const order of having('late_sms').filter((entry) => entry.supplier === 'sim-b')) {
      const [ours] = await t.ctx.database.db
        .select()
        .from(activations)
        .where(eq(activations.id, order.orderId));
      expect(ours!.status).toBe('completed');
      const theirs = await simState(order.supplier, order.upstreamId);
      expect(theirs.status).toBe('finished');
    }
    // The balances once the day's business is over; then sim-b's account is topped up by $5, which no
    // charge or return explains.
    await t.ctx.alerts.readBalances();
    const [simB] = await t.ctx.database.db
      .select()
      .from(supplierBalanceReadings)
      .where(eq(supplierBalanceReadings.provider, 'sim-b'))
      .orderBy(desc(supplierBalanceReadings.id))
      .limit(1);
    await simulatorControl(t, 'balance', { balanceUsd: simB!.balanceCents / 100 + 5 }, 'sim-b');
    t.clock.advance(MINUTE_MS);
    await t.ctx.alerts.readBalances();

    // The night after: sim-a's history failing leaves its day incomplete; the next nightly run completes it.
    t.clock.set(t0 + 24 * 60 * MINUTE_MS);
    await simulatorControl(t, 'fault', { action: 'getHistory', token: 'ERROR_SQL', times: 0 }, 'sim-a');
    const first = await t.ctx.admin.reconciliation.run(day);
    expect(first.find((run) => run.provider === 'sim-a')?.complete).toBe(false);
    await simulatorControl(t, 'clear-faults', {}, 'sim-a');
    await t.ctx.admin.reconciliation.runDue();
    const report = await t.ctx.admin.reconciliation.report({ from: day, to: day });

    const found = report.mismatches.map(({ provider, provider_order_id, cause, amount_cents }) => ({
      provider,
      provider_order_id,
      cause,
      amount_cents,
    }));
    const byId = (left: Expected, right: Expected) =>
      left.provider_order_id.localeCompare(right.provider_order_id);
    expect(found.sort(byId)).toEqual(expected.sort(byId));

    for (const supplier of SUPPLIERS) {
      const { account } = (await simulatorControl(t, 'account', {}, supplier.name)) as {
        account: { chargedCents: number; returnedCents: number };
      };
      const row = report.days.find((entry) => entry.provider === supplier.name && entry.day === day)!;
      expect(row.complete).toBe(true);
      expect(row.bought).toBe(ORDERS_PER_SUPPLIER);
      // Every cent the supplier kept is accounted for, ours and the orders it sold outside them.
      expect(row.cost_cents - row.returned_cents).toBe(account.chargedCents - account.returnedCents);
      const leaked = expected
        .filter((entry) => entry.provider === supplier.name)
        .reduce((sum, entry) => sum + entry.amount_cents, 0);
      expect(row.leakage_cents).toBe(leaked);
      expect(row.mismatches).toBe(expected.filter((entry) => entry.provider === supplier.name).length);
      // The balance moved by what the supplier kept, and by the top-up where there was one.
      const topUpCents = supplier.name === 'sim-b' ? 500 : 0;
      expect(row.balance_change_cents).toBe(topUpCents - (account.chargedCents - account.returnedCents));
      expect(row.unexplained_cents).toBe(topUpCents);
    }
    // The overview's cost of the day is what the suppliers kept for our orders, not their listed prices.
    const hours = await t.ctx.database.db
      .select()
      .from(businessHours)
      .where(
        and(
          gte(businessHours.hour, new Date(t0 - MINUTE_MS * 60)),
          lt(businessHours.hour, new Date(t0 + 23 * 60 * MINUTE_MS)),
        ),
      );
    const keptForOrders =
      report.days.reduce((sum, row) => sum + row.cost_cents - row.returned_cents, 0) -
      expected
        .filter((entry) => entry.cause === 'charged_without_order')
        .reduce((sum, entry) => sum + entry.amount_cents, 0);
    expect(hours.reduce((sum, hour) => sum + hour.costCents, 0)).toBe(keptForOrders);

    // A rerun finds the same, no more.
    await t.ctx.admin.reconciliation.run(day);
    expect((await t.ctx.admin.reconciliation.report({ from: day, to: day })).mismatches).toHaveLength(
      expected.length,
    );

    // The console: the report, its CSV, and an audited write-off (signed in now, a day after the buyer).
    const admin = await createUser(t, { admin: true });
    const visitor = await createUser(t);
    const page = await t.app.inject({
      url: `/api/admin/reconciliation?from=${day}&to=${day}`,
      headers: admin.headers,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json().mismatches).toHaveLength(expected.length);
    const forbidden = await t.app.inject({
      url: `/api/admin/reconciliation?from=${day}&to=${day}`,
      headers: visitor.headers,
    });
    expect(forbidden.statusCode).toBe(403);
    const csv = await t.app.inject({
      url: `/api/admin/reconciliation.csv?from=${day}&to=${day}`,
      headers: admin.headers,
    });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.trim().split('\r\n')).toHaveLength(expected.length + 1);
    const listed = page.json().mismatches as Array<{ id: number; cause: string }>;
    // No order holds a charge the supplier made outside them: there is nothing to cancel it under.
    const orderless = listed.find((entry) => entry.cause === 'charged_without_order')!;
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reconciliation/mismatches/${orderless.id}`,
      headers: admin.headers,
      payload: { action: 'retry_cancel', reason: 'try again' },
    });
    expect([retry.statusCode, retry.json().code]).toEqual([409, 'no_upstream_number']);
    const target = orderless;
    const writeOff = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reconciliation/mismatches/${target.id}`,
      headers: admin.headers,
      payload: { action: 'write_off', reason: 'supplier will not refund' },
    });
    expect(writeOff.statusCode, writeOff.body).toBe(200);
    expect(writeOff.json().mismatch).toMatchObject({
      state: 'written_off',
      note: 'supplier will not refund',
    });
    const audited = await t.ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.objectType, 'mismatch'));
    expect(audited).toEqual([
      expect.objectContaining({ action: 'mismatch_write_off', objectId: String(target.id) }),
    ]);
  });

  it("keeps each rent's charges, renewals added, and finds a rent refunded to its buyer that its supplier kept", async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const buyer = await createUser(t);
    const kept = await rentedNumber(t, buyer, { fundCents: 100_000 });
    expect((await rentAction(t, buyer, kept.order_id!, 'renew', { periodID: 24 })).statusCode).toBe(200);
    const returned = await rentedNumber(t, buyer, { fundCents: 1 });
    expect((await rentAction(t, buyer, returned.order_id!, 'cancel')).statusCode).toBe(200);
    const lost = await rentedNumber(t, buyer, { fundCents: 1 });

    const { usdRate } = t.ctx.providers.member('sim-a');
    const cents = (cost: string) => Math.round(Number(cost) * usdRate * 100);
    const rentRows = await t.ctx.database.db.select().from(rents).orderBy(rents.id);
    const [renewal] = await t.ctx.database.db.select().from(rentRenewals);
    const chargesOf = () =>
      t.ctx.database.db
        .select()
        .from(supplierCharges)
        .where(eq(supplierCharges.orderKind, 'rent'))
        .orderBy(supplierCharges.orderId);
    const charged = [
      cents(rentRows[0]!.upstreamCost) + cents(renewal!.upstreamCost),
      cents(rentRows[1]!.upstreamCost),
      cents(rentRows[2]!.upstreamCost),
    ];
    expect(
      (await chargesOf()).map((row) => [row.orderId, row.state, row.chargedCents, row.returnedCents]),
    ).toEqual([
      [rentRows[0]!.id, 'live', charged[0], 0],
      [rentRows[1]!.id, 'returned', charged[1], charged[1]],
      [rentRows[2]!.id, 'live', charged[2], 0],
    ]);

    // The third rent ends as cancelled on our side without its supplier hearing of it (a cancel whose
    // call was lost): the buyer is owed it, the supplier keeps charging.
    await t.ctx.database.db.update(rents).set({ status: 'canceled' }).where(eq(rents.id, lost.id));
    const day = t.clock.now().toISOString().slice(0, 10);
    await t.ctx.admin.reconciliation.run(day, 'sim-a');
    const report = await t.ctx.admin.reconciliation.report({ from: day, to: day });
    expect(report.mismatches).toEqual([
      expect.objectContaining({
        order_kind: 'rent',
        order_id: rentRows[2]!.id,
        provider_order_id: rentRows[2]!.providerRentId,
        cause: 'refunded_but_charged',
        amount_cents: charged[2],
      }),
    ]);
    const row = report.days.find((entry) => entry.provider === 'sim-a')!;
    expect(row).toMatchObject({
      bought: 3,
      cost_cents: charged[0]! + charged[1]! + charged[2]!,
      returned_cents: charged[1],
      refunded_cents: rentRows[1]!.priceCents + rentRows[2]!.priceCents,
      leakage_cents: charged[2],
      mismatches: 1,
    });

    // The administrator notes a dispute, then cancels the rent at the supplier from the mismatch: the
    // supplier gives its charge back and the mismatch is resolved; both audited.
    const admin = await createUser(t, { admin: true });
    const act = (action: string, reason: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/reconciliation/mismatches/${report.mismatches[0]!.id}`,
        headers: admin.headers,
        payload: { action, reason },
      });
    const disputed = await act('dispute', 'asked the supplier');
    expect(disputed.json().mismatch).toMatchObject({ state: 'disputed', note: 'asked the supplier' });
    const retried = await act('retry_cancel', 'cancel it for real');
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().mismatch).toMatchObject({ state: 'resolved' });
    expect((await chargesOf()).find((row) => row.orderId === lost.id)).toMatchObject({
      state: 'returned',
      returnedCents: charged[2],
    });
    const audited = await t.ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.objectType, 'mismatch'));
    expect(audited.map((entry) => entry.action)).toEqual(['mismatch_dispute', 'mismatch_retry_cancel']);
  });
});
