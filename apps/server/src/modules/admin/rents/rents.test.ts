import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant } from '../../../../test/support/money';
import { quietSimulator, rentedNumber, upstreamRentId } from '../../../../test/support/rents';
import { createListeningTestApp, simulatorControl } from '../../../../test/support/upstream';
import { createUser, type TestUser } from '../../../../test/support/users';
import { ledgerEntries, rents } from '../../../db/schema';
import { balanceOf } from '../../accounts/ledger';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

const get = (caller: TestUser, url: string) =>
  t.app.inject({ url: `/api/admin${url}`, headers: caller.headers });
const refund = (caller: TestUser, id: number, body: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/rents/${id}/refund`,
    headers: caller.headers,
    payload: body,
  });

describe('rents in the console', () => {
  it('finds a rent, shows its history, and refunds it once when two administrators try together', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const admin = await createUser(t, { admin: true });
    const second = await createUser(t, { admin: true });
    const user = await createUser(t);
    const rent = await rentedNumber(t, user);
    const [row] = await t.ctx.database.db.select().from(rents);
    const balanceAfterRent = await balanceOf(t.ctx.database.db, user.id);

    for (const query of [
      `status=active`,
      `user_id=${user.id}`,
      `q=${row!.phoneNumber!.slice(-5)}`,
      `q=${row!.id}`,
    ]) {
      expect(
        (await get(admin, `/rents?${query}`)).json().rents.map((entry: { id: number }) => entry.id),
        query,
      ).toEqual([row!.id]);
    }
    expect((await get(admin, '/rents?status=expired')).json().rents).toEqual([]);
    const detail = (await get(admin, `/rents/${row!.id}`)).json();
    expect(detail.rent).toMatchObject({
      id: row!.id,
      username: user.username,
      period: '24 hours',
      status: 'active',
    });
    expect(detail.ledger).toEqual([expect.objectContaining({ kind: 'purchase', reference_type: 'rent' })]);

    const [a, b] = await Promise.all([
      refund(admin, row!.id, { reason: 'number never received anything' }),
      refund(second, row!.id, { reason: 'ticket 31' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(balanceAfterRent + row!.priceCents);
    const refunds = await t.ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.kind, 'refund'));
    expect(refunds).toHaveLength(1);
    const after = (await get(admin, `/rents/${row!.id}`)).json();
    expect(after.rent).toMatchObject({ status: 'canceled' });
    expect(after.audit).toEqual([expect.objectContaining({ action: 'rent.refund' })]);
    expect(rent.order_id).toBe(String(row!.id));
  });

  it('refunds a rent that received SMS only when forced', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const admin = await createUser(t, { admin: true });
    const user = await createUser(t);
    const rent = await rentedNumber(t, user);
    await simulatorControl(t, 'sms', { rentId: await upstreamRentId(t, rent.order_id), text: 'code 4321' });
    await expect
      .poll(async () => (await get(admin, `/rents/${rent.id}`)).json().messages.length, { timeout: 5000 })
      .toBe(1);
    expect((await refund(admin, rent.id, { reason: 'bank rejected it' })).statusCode).toBe(409);
    const forced = await refund(admin, rent.id, { reason: 'bank rejected it', force: true });
    expect(forced.statusCode, forced.body).toBe(200);
  });
});
