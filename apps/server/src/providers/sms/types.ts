/**
 * The one interface every SMS upstream is used through. Identifiers on this side are canonical:
 * services by the spec's two-letter codes (`tg`, `wa`, `go`, ...; rent services by the same codes,
 * the opt<N> keys are mapped in the catalog), countries by ISO 3166-1 alpha-2 in upper case (`US`),
 * operators by the provider's lowercase key or `any`. Adapters translate to and from the provider's ids.
 * Money is in the provider's currency as a plain number; the catalog converts it to our cents.
 */

export interface UpstreamCountry {
  /** ISO alpha-2, upper case. */
  countryId: string;
  /** Operator keys the provider lists for the country (never includes `any`). */
  operators: string[];
  /** Whether the country supports long-term rent. */
  rentSupported: boolean;
}

export interface UpstreamOffer {
  countryId: string;
  service: string;
  /** Price of one activation in the provider's currency. */
  cost: number;
  /** Numbers available now; 0 means out of stock. */
  stock: number;
  /**
   * Each operator's own price and stock, where the provider prices per operator (5sim); absent where every
   * operator costs the same (the SMS-Activate family). `cost` and `stock` are then those of operator `any`.
   */
  byOperator?: Record<string, { cost: number; stock: number }>;
}

export interface UpstreamCatalog {
  countries: UpstreamCountry[];
  offers: UpstreamOffer[];
}

export interface BuyActivationRequest {
  service: string;
  countryId: string;
  /** Omit or `any` for any operator. */
  operator?: string;
  /** Ceiling in the provider's currency: the upstream must not charge more than we quoted. */
  maxPrice: number;
  /**
   * A stable anonymous id of the buyer, for a provider that takes one per purchase (HeroSMS's
   * `resellerUserId`), so that its ban falls on that buyer and not on our account; never our user id.
   */
  customerRef?: string;
}

export interface BoughtActivation {
  activationId: string;
  /** International format, digits only, no '+'. */
  phoneNumber: string;
  /** What the upstream says it charged, when it says (getNumberV2). */
  cost?: number;
  /** When the upstream will end the activation, when it says. */
  expiresAt?: Date;
}

export type ActivationState =
  | { kind: 'waiting' }
  /** A code arrived; `text` is the full SMS when the upstream gives it. */
  | { kind: 'code'; code: string; text?: string }
  /** A code arrived and another was requested (status 3); waiting for the next one. */
  | { kind: 'waiting_retry'; lastCode: string }
  | { kind: 'cancelled' }
  | { kind: 'finished' };

export interface ActiveActivation {
  activationId: string;
  phoneNumber: string;
  service: string;
  countryId: string | null;
  state: ActivationState;
  /** Every code the upstream reports for this activation, oldest first. */
  codes: string[];
  smsText?: string;
  activatedAt?: Date;
}

/** One SMS of an activation, as the upstream lists them all (getAllSms). */
export interface ActivationMessage {
  /** The code the upstream read from it, when it did. */
  code?: string;
  /** The full text; the code alone where the upstream gives no text (a call verification, getStatus). */
  text: string;
  from?: string;
  receivedAt?: Date;
}

/** An activation of the account's history, live or closed (getHistory). */
export interface RecentActivation {
  activationId: string;
  phoneNumber: string;
  /**
   * `finished` (6) or `cancelled` (8, or 10: refunded at the end of its lifetime) once closed; a live one with
   * an SMS is `code` (or `waiting_retry`) with the last entry of `messages` as its code, which on Hero is
   * the SMS's text: read the code itself with getActivationState.
   */
  state: ActivationState;
  activatedAt?: Date;
  /** Its SMS as the upstream lists them, oldest first: the codes on SMS-Activate, the last text on Hero. */
  messages: string[];
  /**
   * What the account keeps paid for it, in the provider's currency, once closed: its price when billed, 0
   * when cancelled or refunded; absent while live or where the provider does not say.
   */
  cost?: number;
}

export interface RentCatalogRequest {
  hours: number;
  countryId?: string;
  operator?: string;
}

export interface UpstreamRentCatalog {
  /** Countries where rent is possible (ISO alpha-2). */
  countries: string[];
  operators: string[];
  /** Canonical service code to price for the asked number of hours and stock. */
  services: Record<string, { cost: number; stock: number }>;
}

export interface RentNumberRequest {
  service: string;
  countryId: string;
  operator?: string;
  hours: number;
  /** Where the upstream should push this rent's SMS, when it supports it. */
  webhookUrl?: string;
}

export interface RentedNumber {
  rentId: string;
  phoneNumber: string;
  endsAt: Date;
}

export interface RentMessage {
  from: string;
  text: string;
  /** Code the upstream extracted, when it did. */
  code?: string;
  receivedAt: Date;
}

export type RentState =
  | { kind: 'messages'; messages: RentMessage[]; total: number }
  | { kind: 'waiting' }
  | { kind: 'cancelled' }
  | { kind: 'finished' }
  | { kind: 'revoked' };

/** An SMS the upstream pushed to us, already parsed by the adapter. */
export type UpstreamSmsEvent =
  | {
      type: 'activation';
      activationId: string;
      code: string | null;
      text: string;
      /** Who sent it, where the upstream says (Hero's `phoneFrom`). */
      from?: string;
      receivedAt: Date;
    }
  | { type: 'rent'; rentId: string; from: string; text: string; receivedAt: Date };

/**
 * One-time activations: what every supplier kind offers. Capabilities a protocol lacks are absent, not
 * faked: 5sim has no "another SMS" (`requestAnotherSms` undefined) and SMS-Activate no ban.
 */
export interface ActivationProvider {
  readonly name: string;

  getCatalog(): Promise<UpstreamCatalog>;
  /** The account's balance at the provider, in its currency (the console shows it in dollars). */
  getBalance(): Promise<number>;

  buyActivation(request: BuyActivationRequest): Promise<BoughtActivation>;
  getActivationState(activationId: string): Promise<ActivationState>;
  /**
   * The state with the SMS's full text where the protocol gives it (SMS-Activate's getStatusV2); absent
   * where it has none. Falls back to the plain state on a provider without it.
   */
  getActivationStateWithText?(activationId: string): Promise<ActivationState>;
  cancelActivation(activationId: string): Promise<void>;
  finishActivation(activationId: string): Promise<void>;
  /** Asks for another SMS on the same number (SMS-Activate's status 3); absent where the protocol has none. */
  requestAnotherSms?(activationId: string): Promise<void>;
  /** Reports the number as unusable (already used elsewhere): 5sim's ban; absent elsewhere. */
  banActivation?(activationId: string): Promise<void>;
  /** One page of the account's active activations; pages count from 0 and hold at most 100. */
  listActiveActivations(page: number): Promise<{ items: ActiveActivation[]; hasMore: boolean }>;
  /**
   * Every SMS of one activation with its full text, oldest first (Hero's getAllSms); where the provider has
   * no such action, the last SMS as getStatusV2 (or getStatus) gives it. Empty once the activation was
   * cancelled or refunded. Absent where the protocol has neither.
   */
  listActivationMessages?(activationId: string): Promise<ActivationMessage[]>;
  /**
   * One page of the account's activations bought since `sinceMs` (at most 30 days back), closed ones
   * included, newest first; pages count from 0 and hold at most 100 (getHistory). What getActiveActivations
   * no longer lists: cancelled, refunded and finished numbers.
   */
  listRecentActivations?(
    sinceMs: number,
    page?: number,
  ): Promise<{ items: RecentActivation[]; hasMore: boolean }>;

  /** Parses a pushed SMS (activation or rent webhook body); null when the body is not one. */
  parseWebhook(body: unknown): UpstreamSmsEvent | null;
}

/** Numbers rented for hours or days: the SMS-Activate family's rent API. */
export interface RentProvider {
  readonly name: string;

  getRentCatalog(request: RentCatalogRequest): Promise<UpstreamRentCatalog>;
  rentNumber(request: RentNumberRequest): Promise<RentedNumber>;
  /** Messages come a page at a time; `page` counts from 0, the default. */
  getRentState(rentId: string, page?: number): Promise<RentState>;
  finishRent(rentId: string): Promise<void>;
  cancelRent(rentId: string): Promise<void>;
  getRentExtensionPrice(rentId: string, hours: number): Promise<number>;
  extendRent(rentId: string, hours: number): Promise<{ endsAt: Date }>;
  /** Ids of the account's active rents, for reconciliation. */
  listActiveRents(): Promise<Array<{ rentId: string; phoneNumber: string }>>;

  parseWebhook(body: unknown): UpstreamSmsEvent | null;
}

/** An SMS-Activate-compatible provider: activations (with another SMS) and rents. */
export interface SmsProvider extends ActivationProvider, RentProvider {
  requestAnotherSms(activationId: string): Promise<void>;
  listActivationMessages(activationId: string): Promise<ActivationMessage[]>;
  listRecentActivations(
    sinceMs: number,
    page?: number,
  ): Promise<{ items: RecentActivation[]; hasMore: boolean }>;
}

/** What went wrong upstream, in terms our services act on. */
export type UpstreamErrorKind =
  /** No numbers for this choice now (NO_NUMBERS, WRONG_MAX_PRICE ...). */
  | 'no_numbers'
  /** Our account at the provider cannot pay (NO_BALANCE). */
  | 'no_balance'
  /** Our account is blocked or limited (BANNED, ACCOUNT_INACTIVE, CHANNELS_LIMIT). */
  | 'account_blocked'
  /** The provider rejected the request as wrong (BAD_SERVICE, BAD_COUNTRY, WRONG_OPERATOR, ...). */
  | 'bad_request'
  /** Cancel refused during the first minutes (EARLY_CANCEL_DENIED). */
  | 'early_cancel_denied'
  /** Cancel refused because a code already arrived (OTP_RECEIVED) or the window is over (CANT_CANCEL). */
  | 'cannot_cancel'
  /** The activation or rent is unknown or already closed (NO_ACTIVATION, ALREADY_FINISH, RENT_DIE ...). */
  | 'not_found'
  /** The provider failed on its side (ERROR_SQL, SERVER_ERROR, 5xx). */
  | 'provider_error'
  /** Bad API key or similar: our configuration is wrong. */
  | 'configuration'
  /** Timeout, connection failure, HTML or garbage: we do not know what happened. */
  | 'unavailable';

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamErrorKind,
    /** The provider's token (`NO_NUMBERS`, `BANNED`, ...) or a short description of the failure. */
    readonly token: string,
    /** A sentence we can show the user as is. */
    readonly userMessage: string,
    /**
     * For state-changing calls: true when the request may have taken effect upstream although it failed
     * here (timeout, 5xx, unparseable answer). A buy with an unknown outcome must be reconciled, not refunded blindly.
     */
    readonly outcomeUnknown = false,
    /** The lowest price the provider would sell at, when it said so (`WRONG_MAX_PRICE:<min>`), in its currency. */
    readonly minPrice?: number,
  ) {
    super(`${token}: ${userMessage}`);
    this.name = 'UpstreamError';
  }
}
