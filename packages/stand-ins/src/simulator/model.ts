/**
 * The simulator's records: what the engine changes, what a store keeps and what the control API shows.
 */

export interface SimSms {
  from: string;
  text: string;
  code: string | null;
  receivedAtMs: number;
}

/** waiting = status 4, received = 2 (code arrived), retry = 3 (another SMS asked for), finished = 6, cancelled = 8. */
export type ActivationStatus = 'waiting' | 'received' | 'retry' | 'finished' | 'cancelled';

export interface SimActivation {
  id: string;
  phoneNumber: string;
  service: string;
  countryId: number;
  operator: string;
  costUsd: number;
  createdAtMs: number;
  expiresAtMs: number;
  status: ActivationStatus;
  sms: SimSms[];
  /** When the next SMS arrives; null when none is coming (the no-SMS share, or closed). */
  nextSmsAtMs: number | null;
  closedAtMs: number | null;
  /** The buyer the customer named on the purchase (HeroSMS's `resellerUserId`), when it named one. */
  resellerUserId?: string;
  /** Cancelled by 5sim's ban (the number was already used elsewhere): its 5sim status stays BANNED. */
  banned?: boolean;
}

export type RentStatus = 'active' | 'cancelled' | 'finished' | 'revoked';

export interface SimRent {
  id: string;
  phoneNumber: string;
  service: string;
  countryId: number;
  operator: string;
  costUsd: number;
  createdAtMs: number;
  endsAtMs: number;
  status: RentStatus;
  sms: SimSms[];
  nextSmsAtMs: number | null;
  webhookUrl: string | null;
  closedAtMs: number | null;
}

export interface SimState {
  version: 1;
  nextActivationId: number;
  nextRentId: number;
  balanceUsd: number;
  activations: Record<string, SimActivation>;
  rents: Record<string, SimRent>;
  /** Numbers sold in the current stock period, by `<period>:<providerCountryId>:<service>`. */
  sold: Record<string, number>;
}

/**
 * What changed: one activation or rent (gone from the state once forgotten), the account alone (its balance
 * set), or everything (a reset).
 */
export type SimChange = `activation:${string}` | `rent:${string}` | 'account' | 'reset';

/** An SMS the engine just delivered, with the order it went to (the webhook and the control API tell of it). */
export type Delivery =
  | { type: 'activation'; activation: SimActivation; sms: SimSms }
  | { type: 'rent'; rent: SimRent; sms: SimSms };
