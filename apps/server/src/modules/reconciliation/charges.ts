import { and, eq, sql } from 'drizzle-orm';
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

/**
 * What the suppliers' own answers say each of their orders cost us: written at purchase, when a cancel or a
 * finish is acknowledged, and from their histories. Never part of the customer's money transactions: a
 * record that cannot be written leaves the order as it is, and the history read fills it in later.
 */
export function createSupplierCharges(db: Executor) {
  return {
    async purchased(answer: PurchaseAnswer, now: Date): Promise<void> {
      await db
        .insert(supplierCharges)
        .values({
          provider: answer.provider,
          orderKind: answer.orderKind,
          providerOrderId: answer.providerOrderId,
          orderId: answer.orderId,
          boughtAt: answer.boughtAt,
          chargedCents: answer.chargedCents ?? null,
          state: 'live',
          source: 'purchase',
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [supplierCharges.provider, supplierCharges.orderKind, supplierCharges.providerOrderId],
          set: { orderId: answer.orderId, updatedAt: now },
        });
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
