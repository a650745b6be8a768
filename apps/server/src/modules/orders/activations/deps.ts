import { english } from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/client';
import type { Activation } from '../../../db/schema';
import type { UserEventBus } from '../../../db/user-events';
import type { Clock } from '../../../lib/clock';
import type { ProviderPool } from '../../../providers/sms/pool';
import type { CatalogService } from '../../catalog/service';
import { type OrderCall, type OrderHistory, recordedCall } from '../history';
import type { ActivationsRepository } from './repository';

/** Why an order was refunded: stored with it in English, shown in the reader's language. */
export const activationReasons = english.activationReasons;

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
