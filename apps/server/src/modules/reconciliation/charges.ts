import { and, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type OrderKind, supplierCharges } from '../../db/schema';

/** An amount in a supplier's currency as our cents, with its rate to the dollar. */
export function supplierCents(amount: number, usdRate: number): number {
  return Math.round(amount * usdRate * 100);
}

export interface PurchaseAnswer {
  provider: string;
  orderKind: OrderKind;
  providerOrderId: string;
  orderId: number;
  boughtAt: Date;
  /** What the purchase's answer said it charged, in our cents; undefined when it did not say. */
  chargedCents?: number;
}

type Bound<T> = { [K in keyof T]: T[K] | Placeholder };

/**
 * The upsert of what a purchase's answer says it charged: a statement of its own, or part of the one that
 * settles an activation (its values then a prepared statement's placeholders). A repeated answer for the
 * same supplier order only points it at our order again.
 */
export function purchaseChargeUpsert(charge: Bound<PurchaseAnswer & { now: Date }>): SQL {
  return sql`insert into supplier_charges (provider, order_kind, provider_order_id, order_id, bought_at,
      charged_cents, state, source, updated_at)
    values (${charge.provider}, ${charge.orderKind}, ${charge.providerOrderId}, ${charge.orderId},
      ${charge.boughtAt}, ${charge.chargedCents ?? null}, 'live', 'purchase', ${charge.now})
    on conflict (provider, order_kind, provider_order_id)
      do update set order_id = excluded.order_id, updated_at = excluded.updated_at`;
}

/**
 * What the suppliers' own answers say each of their orders cost us: written at purchase, when a cancel or a
 * finish is acknowledged, and from their histories. Never part of the customer's money transactions: a
 * record that cannot be written leaves the order as it is, and the history read fills it in later.
 */
export function createSupplierCharges(db: Executor) {
  return {
    async purchased(answer: PurchaseAnswer, now: Date): Promise<void> {
      await db.execute(purchaseChargeUpsert({ ...answer, now }));
    },

    /** The supplier charged the order again (a rent's further period): added to what it charged. */
    async chargedAgain(
      order: { kind: OrderKind; id: number; provider: string },
      cents: number,
      now: Date,
    ): Promise<void> {
      await db
        .update(supplierCharges)
        .set({ chargedCents: sql`coalesce(${supplierCharges.chargedCents}, 0) + ${cents}`, updatedAt: now })
        .where(
          and(
            eq(supplierCharges.provider, order.provider),
            eq(supplierCharges.orderKind, order.kind),
            eq(supplierCharges.orderId, order.id),
          ),
        );
    },

    /**
     * The supplier acknowledged a cancel (it gives back what it charged) or a finish (it keeps it), for our
     * order `orderId`.
     */
    async closed(
      order: { kind: OrderKind; id: number; provider: string },
      action: 'cancel' | 'finish',
      now: Date,
    ): Promise<void> {
      const returned = action === 'cancel';
      await db
        .update(supplierCharges)
        .set({
          state: returned ? 'returned' : 'billed',
          returnedCents: returned ? sql`coalesce(${supplierCharges.chargedCents}, 0)` : 0,
          source: action,
          updatedAt: now,
        })
        .where(
          and(
            eq(supplierCharges.provider, order.provider),
            eq(supplierCharges.orderKind, order.kind),
            eq(supplierCharges.orderId, order.id),
          ),
        );
    },
  };
}

export type SupplierChargesRecord = ReturnType<typeof createSupplierCharges>;
