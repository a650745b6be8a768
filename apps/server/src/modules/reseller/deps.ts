import type { Params, ProtocolReply, ResponseStyle } from '@simcode/sms-activate-protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { UserEventBus } from '../../db/user-events';
import type { Clock } from '../../lib/clock';
import type { MoneyService } from '../accounts/money-service';
import type { ApiKeyService, AuthenticatedKey } from '../api-keys/service';
import type { WaitSlots } from '../api-keys/wait-slots';
import type { CatalogService } from '../catalog/service';
import type { ActivationService } from '../orders/activations/service';
import type { RentalService } from '../orders/rents/service';

/** What the reseller API (the SMS-Activate protocol and MCP) works with, handed in by the composition root. */
export interface ResellerDeps {
  activations: ActivationService;
  rentals: RentalService;
  catalog: CatalogService;
  apiKeys: ApiKeyService;
  money: MoneyService;
  /** For the MCP server's idempotency keys. */
  db: Database;
  events: UserEventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  appName: string;
  /**
   * Calls a key, and all the keys of a user together, may make in a minute; and lookups of keys this
   * process does not know that one address may cause.
   */
  callsPerMinute: { perKey: number; perUser: number; unknownKeyLookups: number };
  /** What each key holds open (MCP's wait_for_code), shared with the JSON API's waits. */
  waits: WaitSlots;
}

/** One call of the protocol: whose key, what it sent, and how the path it came by answers. */
export interface Call {
  key: AuthenticatedKey;
  params: Params;
  style: ResponseStyle;
}

export type Handler = (call: Call) => Promise<ProtocolReply> | ProtocolReply;
