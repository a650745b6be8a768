import { apiKeyMessages, DELIVERY_MIN_ORDERS, type DeliveryFigures, formatCents } from '@simcode/contract';
import type { SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { type AppError, fail } from '../../lib/errors';
import { createOrderWithDebit, InsufficientBalanceError } from '../accounts/ledger';

/**
 * A spend made through an API key. Every spend through a key counts against that key's caps, whatever the
 * order or rent was bought with: `admit` checks them under the key's lock, in the spend's transaction.
 */
export interface KeySpend {
  apiKeyId: number;
  /** The key's own limits on what one purchase may be, checked before any money is held. */
  guards: { maxPriceCents: number | null; minDeliveryRate: number | null };
  admit(tx: Executor, priceCents: number): Promise<void>;
}

/** An offer's delivery rate (0–1), or null while it rests on fewer than DELIVERY_MIN_ORDERS settled orders. */
export function knownDeliveryRate(delivery: DeliveryFigures | undefined): number | null {
  if (!delivery || delivery.orders < DELIVERY_MIN_ORDERS) return null;
  return delivery.delivered / delivery.orders;
}

/** Whether an offer clears a buyer's minimum delivery rate; a "new" offer (rate not known yet) does. */
export function clearsDeliveryFloor(
  delivery: DeliveryFigures | undefined,
  floor: number | undefined,
): boolean {
  const rate = knownDeliveryRate(delivery);
  return floor === undefined || rate === null || rate >= floor;
}

/** A key's spend with one call's own minimum delivery rate on top of the key's: the stricter one applies. */
export function withDeliveryFloor(spend: KeySpend, floor: number | undefined): KeySpend {
  if (floor === undefined) return spend;
  const keyFloor = spend.guards.minDeliveryRate;
  return { ...spend, guards: { ...spend.guards, minDeliveryRate: Math.max(keyFloor ?? 0, floor) } };
}

/** What is paid for: a new order, a new rent or a rent's renewal. */
export interface Hold {
  referenceType: 'activation' | 'rent' | 'rent_renewal';
  priceCents: number;
  /**
   * The INSERT … RETURNING id, user_id, price_cents of the row paid for; a function when it needs the
   * transaction first (a renewal locks its rent and reads its end date before it is written).
   */
  insert: SQL | ((tx: Executor) => Promise<SQL>);
  /** The key the spend is made through. */
  through?: KeySpend;
  /** SimCode's own delivery figures of what is bought, for the key's floor (null while none settled). */
  delivery?: DeliveryFigures;
  /** The refusal when the balance is short: its words depend on what is bought. */
  insufficient(): AppError;
  /** The ledger's idempotency key of the debit, before the row's id (the debit's usual one by default). */
  idempotencyKeyPrefix?: string;
}

/**
 * The one way money is held for an order, a rent or a renewal, before anyone upstream is asked: the key's
 * caps (under its lock), the row and the debit of its price commit together, in one statement when nothing
 * else needs the transaction. Locks are taken in one order on every path (the key's, the account's, then
 * the rent's), so concurrent spends queue instead of deadlocking. Returns the new row's id.
 */
export async function holdMoney(db: Database, hold: Hold): Promise<number> {
  if (hold.through) assertGuards(hold.through.guards, hold.priceCents, hold.delivery ?? null);
  const debit = async (executor: Executor) =>
    createOrderWithDebit(
      executor,
      typeof hold.insert === 'function' ? await hold.insert(executor) : hold.insert,
      {
        kind: 'purchase',
        referenceType: hold.referenceType,
        idempotencyKeyPrefix: hold.idempotencyKeyPrefix,
      },
    );
  try {
    if (!hold.through && typeof hold.insert !== 'function') return await debit(db);
    return await db.transaction(async (tx) => {
      await hold.through?.admit(tx, hold.priceCents);
      return debit(tx);
    });
  } catch (error) {
    if (error instanceof InsufficientBalanceError) throw hold.insufficient();
    throw error;
  }
}

/**
 * A key's guards on one purchase (a price ceiling, a floor on the delivery rate), refused before anything is
 * held: a bot's purchase that is dearer, or likelier to fail, than its owner allows never happens. A rate
 * resting on fewer than DELIVERY_MIN_ORDERS settled orders is not yet known, and passes.
 */
function assertGuards(guards: KeySpend['guards'], priceCents: number, delivery: DeliveryFigures): void {
  if (guards.maxPriceCents !== null && priceCents > guards.maxPriceCents)
    throw fail(
      'price_above_guard',
      apiKeyMessages.priceAboveKeyCeiling(formatCents(priceCents), formatCents(guards.maxPriceCents)),
    );
  const rate = knownDeliveryRate(delivery);
  if (guards.minDeliveryRate === null || rate === null) return;
  if (rate < guards.minDeliveryRate)
    throw fail(
      'offer_below_guard',
      apiKeyMessages.deliveryBelowFloor(
        `${Math.round(rate * 100)}%`,
        `${Math.round(guards.minDeliveryRate * 100)}%`,
      ),
    );
}
