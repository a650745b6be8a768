import { eq, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import { type LedgerKind, users } from '../../db/schema';

export class InsufficientBalanceError extends Error {
  constructor() {
    super('insufficient balance');
    this.name = 'InsufficientBalanceError';
  }
}

export interface LedgerChange {
  userId: number;
  /** Signed: a debit is negative. Never zero. */
  amountCents: number;
  kind: LedgerKind;
  referenceType: string;
  referenceId: string;
  /** Unique across the ledger: the same key applied twice changes the balance once. */
  idempotencyKey: string;
  note?: string;
}

export interface LedgerResult {
  /** False when an entry with this idempotency key already existed: nothing changed. */
  applied: boolean;
  balanceAfterCents: number;
}

/**
 * Locks the user's account row until the transaction ends. Every money path takes this lock before
 * touching anything that references the user, so concurrent paths queue here instead of deadlocking.
 */
export async function lockAccount(tx: Executor, userId: number): Promise<number> {
  const [row] = await tx
    .select({ balanceCents: users.balanceCents })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!row) throw new Error(`user ${userId} does not exist`);
  return row.balanceCents;
}

/** The database function's refusal, whichever driver raised it (drizzle wraps it in `cause`). */
function refusalOf(error: unknown): string | undefined {
  for (const candidate of [error, (error as { cause?: unknown } | null)?.cause]) {
    const message = (candidate as { message?: unknown } | null)?.message;
    if (message === 'insufficient_balance' || message === 'no_such_user') return message;
  }
  return undefined;
}

/**
 * The only way a balance changes, inside the caller's transaction, in one round trip to the database
 * function `simcode_apply_ledger_change`: the account row is locked by a conditional update (a debit never
 * takes the balance below zero), a used idempotency key changes nothing, and the entry is appended with
 * the balance after it. The unique key and the CHECK constraint back this up in the schema.
 */
export async function applyLedgerChange(tx: Executor, change: LedgerChange): Promise<LedgerResult> {
  if (!Number.isSafeInteger(change.amountCents) || change.amountCents === 0) {
    throw new Error(`invalid ledger amount ${change.amountCents}`);
  }
  try {
    const [row] = await queryRows<{ applied: boolean; balance_after_cents: string | number }>(
      tx,
      sql`select applied, balance_after_cents from simcode_apply_ledger_change(
        ${change.userId}, ${change.amountCents}, ${change.kind}, ${change.referenceType}, ${change.referenceId},
        ${change.idempotencyKey}, ${change.note ?? null})`,
    );
    return { applied: row!.applied, balanceAfterCents: Number(row!.balance_after_cents) };
  } catch (error) {
    if (refusalOf(error) === 'insufficient_balance') throw new InsufficientBalanceError();
    if (refusalOf(error) === 'no_such_user') throw new Error(`user ${change.userId} does not exist`);
    throw error;
  }
}

/**
 * Creates an order and debits its price in ONE statement (one round trip, one commit): `insertOrder` must
 * be an INSERT … RETURNING `id`, `user_id` and `price_cents`. Either both happen or neither; a price the
 * balance cannot cover raises InsufficientBalanceError and leaves no order behind.
 */
export async function createOrderWithDebit(
  db: Executor,
  insertOrder: SQL,
  debit: { kind: LedgerKind; referenceType: string; idempotencyKeyPrefix?: string },
): Promise<number> {
  const keyPrefix = debit.idempotencyKeyPrefix ?? `purchase:${debit.referenceType}:`;
  try {
    const [row] = await queryRows<{ id: number }>(
      db,
      sql`with created as (${insertOrder})
        select created.id from created, lateral simcode_apply_ledger_change(
          created.user_id, -created.price_cents, ${debit.kind}, ${debit.referenceType}, created.id::text,
          ${keyPrefix} || created.id, null) as change`,
    );
    return Number(row!.id);
  } catch (error) {
    if (refusalOf(error) === 'insufficient_balance') throw new InsufficientBalanceError();
    throw error;
  }
}

export async function balanceOf(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, userId));
  return row?.balanceCents ?? 0;
}
