import { and, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
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

/** One call made to a provider about an order, with its answer, as the order's history keeps it. */
export type OrderCallRecord = Omit<NewOrderEvent, 'orderKind'>;

/**
 * The INSERT of calls into an order kind's history from a JSON array of OrderCallRecord (a value, or a
 * prepared statement's placeholder): however many they are, one statement, which can ride along with the
 * statement that settles the order.
 */
export function orderCallsInsert(kind: OrderKind, records: string | Placeholder): SQL {
  return sql`insert into order_events (order_kind, order_id, at, provider, action, outcome, detail, latency_ms)
    select ${kind}::text, e."orderId", e.at, e.provider, e.action, e.outcome, e.detail, e."latencyMs"
    from jsonb_to_recordset(${records}::jsonb) as e("orderId" int, at timestamptz, provider text,
      action text, outcome text, detail text, "latencyMs" int)`;
}

/** Every call made to a provider about an order or a rent, with its answer: the operators' view of its history. */
export function createOrderHistory(db: Executor) {
  return {
    /** What the suppliers' answers say each order cost: the reconciliation's record. */
    charges: createSupplierCharges(db),

    async add(kind: OrderKind, records: readonly OrderCallRecord[]): Promise<void> {
      if (records.length > 0) await db.execute(orderCallsInsert(kind, JSON.stringify(records)));
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
