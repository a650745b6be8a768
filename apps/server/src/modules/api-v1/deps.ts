import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { UserEventBus } from '../../db/user-events';
import type { Clock } from '../../lib/clock';
import type { MoneyService } from '../accounts/money-service';
import type { ApiKeyService } from '../api-keys/service';
import type { WaitSlots } from '../api-keys/wait-slots';
import type { CatalogService } from '../catalog/service';
import type { ActivationService } from '../orders/activations/service';
import type { RentalService } from '../orders/rents/service';
import type { DeliveryIndex } from '../stats/delivery-index';

/** What the JSON API works with, handed in by the composition root. */
export interface ApiV1Deps {
  activations: ActivationService;
  rentals: RentalService;
  catalog: CatalogService;
  apiKeys: ApiKeyService;
  money: MoneyService;
  /** For the idempotency keys of writes. */
  db: Database;
  events: UserEventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  publicUrl: string;
  /**
   * Calls a key, and all the keys of a user together, may make in a minute; and lookups of keys this
   * process does not know that one address may cause.
   */
  callsPerMinute: { perKey: number; perUser: number; unknownKeyLookups: number };
  /** What each key holds open (long-polls, event streams), shared with MCP's waits. */
  waits: WaitSlots;
  /** The public SMS Delivery Index, served without a key. */
  deliveryIndex: DeliveryIndex;
}
