import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client';
import { type NewOrderEvent, type OrderEvent, type OrderKind, orderEvents } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { UpstreamError } from '../../providers/sms/types';
import { createSupplierCharges } from '../reconciliation/charges';

export type OrderCall = 'buy' | 'cancel' | 'ban' | 'finish' | 'another_sms' | 'extend';

/** The order a provider call is about. */
export interface OrderRef {
  kind: OrderKind;
  id: number;
  provider: string;
}

/** Every call made to a provider about an order or a rent, with its answer: the operators' view of its history. */
export function createOrderHistory(db: Executor) {
  return {
    /** What the suppliers' answers say each order cost: the reconciliation's record. */
    charges: createSupplierCharges(db),

    async add(kind: OrderKind, events: ReadonlyArray<Omit<NewOrderEvent, 'orderKind'>>): Promise<void> {
      if (events.length > 0)
        await db.insert(orderEvents).values(events.map((event) => ({ ...event, orderKind: kind })));
    },

    async of(kind: OrderKind, orderId: number): Promise<OrderEvent[]> {
      return db
        .select()
        .from(orderEvents)
        .where(and(eq(orderEvents.orderKind, kind), eq(orderEvents.orderId, orderId)))
        .orderBy(orderEvents.id);
    },
  };
}

export type OrderHistory = ReturnType<typeof createOrderHistory>;

/**
 * Makes a call to the order's provider and writes it, with its answer, to the order's history; the call's
 * own result or error comes back unchanged. A history that cannot be written never fails the call.
 */
export async function recordedCall<T>(
  deps: { history: OrderHistory; clock: Clock; log: FastifyBaseLogger },
  order: OrderRef,
  action: OrderCall,
  call: () => Promise<T>,
): Promise<T> {
  const at = deps.clock.now();
  const startedAtMs = performance.now();
  const record = (outcome: string, detail?: string) =>
    deps.history
      .add(order.kind, [
        {
          orderId: order.id,
          at,
          provider: order.provider,
          action,
          outcome,
          detail,
          latencyMs: Math.round(performance.now() - startedAtMs),
        },
      ])
      .catch((error: unknown) =>
        deps.log.warn(
          { err: error, orderId: order.id, kind: order.kind },
          'could not record a provider call',
        ),
      );
  try {
    const result = await call();
    await record('ok');
    if (action === 'cancel' || action === 'finish') {
      // The supplier acknowledged it: a cancel gives its charge back, a finish keeps it.
      await deps.history.charges
        .closed(order, action, deps.clock.now())
        .catch((error: unknown) =>
          deps.log.warn({ err: error, orderId: order.id }, 'could not record what the supplier returned'),
        );
    }
    return result;
  } catch (error) {
    await record(
      error instanceof UpstreamError ? error.token : 'error',
      error instanceof Error ? error.message : String(error),
    );
    throw error;
  }
}
