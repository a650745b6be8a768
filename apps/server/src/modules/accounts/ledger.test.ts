import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app';
import { assertLedgerInvariant } from '../../../test/support/money';
import { createUser } from '../../../test/support/users';
import { applyLedgerChange, balanceOf, InsufficientBalanceError } from './ledger';

describe('ledger', () => {
  it('credits, debits and refuses a debit below zero without changing anything', async () => {
    const t = await createTestApp();
    const user = await createUser(t);
    const { db } = t.ctx.database;
    const credit = await db.transaction((tx) =>
      applyLedgerChange(tx, {
        userId: user.id,
        amountCents: 500,
        kind: 'adjustment',
        referenceType: 'test',
        referenceId: '1',
        idempotencyKey: 'credit-1',
      }),
    );
    expect(credit).toEqual({ applied: true, balanceAfterCents: 500 });
    await expect(
      db.transaction((tx) =>
        applyLedgerChange(tx, {
          userId: user.id,
          amountCents: -501,
          kind: 'purchase',
          referenceType: 'test',
          referenceId: '2',
          idempotencyKey: 'debit-too-much',
        }),
      ),
    ).rejects.toBeInstanceOf(InsufficientBalanceError);
    const debit = await db.transaction((tx) =>
      applyLedgerChange(tx, {
        userId: user.id,
        amountCents: -500,
        kind: 'purchase',
        referenceType: 'test',
        referenceId: '3',
        idempotencyKey: 'debit-1',
      }),
    );
    expect(debit.balanceAfterCents).toBe(0);
    expect(await balanceOf(db, user.id)).toBe(0);
    await assertLedgerInvariant(t.ctx.database);
    await t.app.close();
  });

  it('applies an idempotency key once, even when replayed concurrently', async () => {
    const t = await createTestApp();
    const user = await createUser(t);
    const { db } = t.ctx.database;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        db.transaction((tx) =>
          applyLedgerChange(tx, {
            userId: user.id,
            amountCents: 1234,
            kind: 'topup',
            referenceType: 'payment',
            referenceId: 'p1',
            idempotencyKey: 'topup:p1',
          }),
        ),
      ),
    );
    const applied = results.filter((result) => result.status === 'fulfilled' && result.value.applied);
    expect(applied).toHaveLength(1);
    expect(await balanceOf(db, user.id)).toBe(1234);
    await assertLedgerInvariant(t.ctx.database);
    await t.app.close();
  });

  it('is append-only in the database itself', async () => {
    const t = await createTestApp();
    const user = await createUser(t);
    const { db } = t.ctx.database;
    await db.transaction((tx) =>
      applyLedgerChange(tx, {
        userId: user.id,
        amountCents: 100,
        kind: 'adjustment',
        referenceType: 'test',
        referenceId: '1',
        idempotencyKey: 'k1',
      }),
    );
    await expect(db.execute(sql`update ledger_entries set amount_cents = 1000000`)).rejects.toThrow();
    await expect(db.execute(sql`delete from ledger_entries`)).rejects.toThrow();
    await expect(db.execute(sql`update users set balance_cents = -1`)).rejects.toThrow();
    await assertLedgerInvariant(t.ctx.database);
    await t.app.close();
  });
});
