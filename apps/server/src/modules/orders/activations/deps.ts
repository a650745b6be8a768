import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/client';
import type { Activation } from '../../../db/schema';
import type { UserEventBus } from '../../../db/user-events';
import type { Clock } from '../../../lib/clock';
import type { ProviderPool } from '../../../providers/sms/pool';
import type { CatalogService } from '../../catalog/service';
import { type OrderCall, type OrderHistory, recordedCall } from '../history';
import type { BuyerGate } from '../place-order';
import type { ActivationsRepository } from './repository';

/** What every operation on one-time orders works with; built once by the activations service. */
export interface ActivationDeps {
  db: Database;
  providers: ProviderPool;
  catalog: CatalogService;
  events: UserEventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  repository: ActivationsRepository;
  history: OrderHistory;
  /** The buyer's stable anonymous id for suppliers that take one per purchase (modules/orders/customer-ref.ts). */
  customerRef(userId: number): string;
  /** Counts refunds once committed (the metrics). */
  refunds: RefundCounter;
  /** Refuses purchases of buyers past the abuse thresholds (modules/alerts); absent: nobody is throttled. */
  buyers?: BuyerGate;
}

/** `simcode_refunds_total`: by what was refunded, its provider and how the order ended. */
export interface RefundCounter {
  inc(labels: { kind: 'activation' | 'rent' | 'renewal'; provider: string; outcome: string }): void;
}

export function pairOf(order: Pick<Activation, 'service' | 'countryId'>) {
  return { service: order.service, countryId: order.countryId };
}

/** A call to the order's provider, written with its answer to the order's history. */
export function callProvider<T>(
  deps: ActivationDeps,
  order: Pick<Activation, 'id' | 'provider'>,
  action: OrderCall,
  call: (provider: ReturnType<ProviderPool['get']>) => Promise<T>,
): Promise<T> {
  return recordedCall(deps, { kind: 'activation', id: order.id, provider: order.provider }, action, () =>
    call(deps.providers.get(order.provider)),
  );
}

/** Tells the owner's pages and caches that an order changed. */
export function numbersChanged(deps: ActivationDeps, userId: number): void {
  deps.events.publish({ userId, type: 'numbers' });
}
