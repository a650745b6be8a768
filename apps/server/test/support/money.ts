import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { type DatabaseHandle, queryRows } from '../../src/db/client';
import { applyLedgerChange } from '../../src/modules/accounts/ledger';

/** Every user's balance equals the sum of their ledger entries, and no balance is negative. */
export async function assertLedgerInvariant(database: DatabaseHandle): Promise<void> {
  const rows = await queryRows<{ id: number; balance: string; ledger: string }>(
    database.db,
    sql`select u.id, u.balance_cents::text as balance, coalesce(sum(l.amount_cents), 0)::text as ledger
        from users u left join ledger_entries l on l.user_id = u.id group by u.id`,
  );
  for (const row of rows) {
    expect(Number(row.balance), `user ${row.id}: balance equals the sum of the ledger`).toBe(
      Number(row.ledger),
    );
    expect(Number(row.balance), `user ${row.id}: balance is not negative`).toBeGreaterThanOrEqual(0);
  }
}

/** Gives a user money the way support would: an adjustment entry in the ledger. */
export async function fundUser(
  database: DatabaseHandle,
  userId: number,
  amountCents: number,
  key = `fund:${userId}:${Math.random()}`,
) {
  await database.db.transaction((tx) =>
    applyLedgerChange(tx, {
      userId,
      amountCents,
      kind: 'adjustment',
      referenceType: 'test',
      referenceId: key,
      idempotencyKey: key,
    }),
  );
}
