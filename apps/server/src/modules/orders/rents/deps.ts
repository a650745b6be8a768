import { formatCents } from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/client';
import type { RentRow } from '../../../db/schema';
import type { UserEventBus } from '../../../db/user-events';
import type { Clock } from '../../../lib/clock';
import type { ProviderPool } from '../../../providers/sms/pool';
import type { RentProvider } from '../../../providers/sms/types';
import { supplierCents } from '../../reconciliation/charges';
import type { RefundCounter } from '../activations/deps';
import { type OrderCall, type OrderHistory, recordedCall } from '../history';
import type { BuyerGate } from '../place-order';
import type { RentCatalog } from './catalog';
import type { RentalsRepository } from './repository';

/** Why an automatic renewal did not happen, shown with the rent until its owner acts. */
export const autoRenewErrors = {
  noBalance: (priceCents: number) =>
    `Not renewed automatically: renewing costs ${formatCents(priceCents)} and your balance was lower. Top up and renew it yourself before it ends.`,
  failed: (why: string) => `Not renewed automatically. ${why} Renew it yourself before it ends.`,
};

/** What every operation on rents works with; built once by the composition root. */
export interface RentDeps {
  db: Database;
  /** The suppliers: new rents go to those that rent numbers, everything after to the rent's own. */
  providers: ProviderPool;
  catalog: RentCatalog;
  events: UserEventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  repository: RentalsRepository;
  history: OrderHistory;
  /** Where a provider pushes its rents' SMS (our webhook, with the provider's name). */
  webhookUrl: (provider: string) => string;
  /** Counts refunds once committed (the metrics). */
  refunds: RefundCounter;
  /** Refuses purchases of buyers past the abuse thresholds (modules/alerts); absent: nobody is throttled. */
  buyers?: BuyerGate;
}

/** Tells the owner's pages and caches that a rent changed (and the balance, when money moved). */
export function rentsChanged(
  deps: RentDeps,
  rent: Pick<RentRow, 'userId' | 'id'> & Partial<Pick<RentRow, 'apiKeyId'>>,
  balance = false,
): void {
  deps.events.publish({ userId: rent.userId, type: 'rents', rentId: rent.id, apiKeyId: rent.apiKeyId });
  if (balance) deps.events.publish({ userId: rent.userId, type: 'balance' });
}

/**
 * What the rent's supplier charged for a period, for the reconciliation: the cost it listed for it (a rent's
 * answer names no price), in our cents; the first period opens the rent's record, a renewal adds to it.
 * Never fails the rent: a lost record shows as a day's cost short in the console.
 */
export async function recordRentCharge(
  deps: RentDeps,
  rent: Pick<RentRow, 'id' | 'provider' | 'providerRentId'>,
  upstreamCost: string | number,
  period: 'first' | 'renewal',
): Promise<void> {
  const now = deps.clock.now();
  const cents = supplierCents(Number(upstreamCost), deps.providers.member(rent.provider).usdRate);
  const order = { kind: 'rent' as const, id: rent.id, provider: rent.provider };
  await (period === 'first'
    ? deps.history.charges.purchased(
        {
          provider: rent.provider,
          orderKind: 'rent',
          providerOrderId: rent.providerRentId!,
          orderId: rent.id,
          boughtAt: now,
          chargedCents: cents,
        },
        now,
      )
    : deps.history.charges.chargedAgain(order, cents, now)
  ).catch((error: unknown) =>
    deps.log.warn({ err: error, rentId: rent.id }, 'could not record the supplier charge'),
  );
}

/** A call to the rent's provider, written with its answer to the rent's history. */
export function callRentProvider<T>(
  deps: RentDeps,
  rent: Pick<RentRow, 'id' | 'provider'>,
  action: OrderCall,
  call: (provider: RentProvider) => Promise<T>,
): Promise<T> {
  return recordedCall(deps, { kind: 'rent', id: rent.id, provider: rent.provider }, action, () =>
    call(deps.providers.rentsOf(rent.provider)),
  );
}
