import { API_KEYS_MAX_LIVE } from './api-keys';
import { FAVOURITES_MAX } from './buying';
import { translate } from './i18n/instance';
import type english from './i18n/locales/en.json';

type Catalogue = typeof english;
/** A plain text of the shared catalogue: `namespace.key` (plural variants are reached through their base key). */
export type CatalogueKey = {
  [Namespace in keyof Catalogue]: `${Namespace & string}.${Exclude<keyof Catalogue[Namespace] & string, `${string}_${'one' | 'other'}`>}`;
}[keyof Catalogue];

interface ErrorEntry {
  status: number;
  /** The text an answer with this code shows unless the place that refuses says something more precise. */
  text: CatalogueKey;
  /** The values the text takes, when they are fixed (limits); a text that takes others is never a default. */
  values?: Readonly<Record<string, number>>;
}

/**
 * Every refusal the product answers with, closed: the code a client acts on, its HTTP status and its text's
 * catalogue key. A code that is not here does not compile, one code has one status everywhere, and the
 * reseller protocol maps codes (not sentences) to its tokens.
 */
export const errorCatalogue = {
  // The request itself.
  invalid_request: { status: 400, text: 'general.invalidRequest' },
  invalid_json: { status: 400, text: 'general.invalidJson' },
  bad_url: { status: 400, text: 'general.badUrl' },
  missing_host: { status: 400, text: 'general.missingHost' },
  malformed_request: { status: 400, text: 'general.malformedRequest' },
  invalid_cursor: { status: 400, text: 'general.invalidRequest' },
  invalid_idempotency_key: { status: 400, text: 'apiKeys.idempotencyKeyInvalid' },
  validation: { status: 400, text: 'auth.fillAllFields' },
  method_not_allowed: { status: 405, text: 'general.methodNotAllowed' },
  request_timeout: { status: 408, text: 'general.requestTimeout' },
  body_too_large: { status: 413, text: 'general.bodyTooLarge' },
  uri_too_long: { status: 414, text: 'general.uriTooLong' },
  unsupported_media_type: { status: 415, text: 'general.unsupportedMediaType' },
  headers_too_large: { status: 431, text: 'general.headersTooLarge' },
  not_found: { status: 404, text: 'general.notFound' },
  rate_limited: { status: 429, text: 'general.tooManyRequests' },
  too_many_waits: { status: 429, text: 'general.tooManyRequests' },
  /** A buyer whose cancels or no-code orders passed the operator's thresholds; `retry_after` in seconds. */
  buyer_throttled: { status: 429, text: 'numbers.buyerThrottled' },
  internal_error: { status: 500, text: 'general.genericError' },

  // Identity and access.
  unauthorized: { status: 401, text: 'session.unauthorized' },
  forbidden: { status: 403, text: 'session.forbidden' },
  invalid_credentials: { status: 401, text: 'auth.invalidCredentials' },
  account_blocked: { status: 403, text: 'auth.accountBlocked' },
  captcha: { status: 400, text: 'auth.captchaRequired' },
  username_taken: { status: 409, text: 'auth.usernameTaken' },
  email_taken: { status: 409, text: 'auth.emailTaken' },
  sign_in_expired: { status: 401, text: 'account.twoFactorSignInExpired' },
  sign_in_code_invalid: { status: 401, text: 'account.twoFactorCodeInvalid' },
  invalid_code: { status: 400, text: 'account.twoFactorCodeInvalid' },
  code_required: { status: 400, text: 'account.twoFactorCodeRequired' },
  two_factor_no_setup: { status: 400, text: 'account.twoFactorNoSetup' },
  two_factor_off: { status: 400, text: 'account.twoFactorNotOn' },
  two_factor_on: { status: 409, text: 'account.twoFactorAlreadyOn' },
  wrong_password: { status: 400, text: 'account.currentPasswordWrong' },
  email_unchanged: { status: 400, text: 'account.emailUnchanged' },
  link_invalid: { status: 400, text: 'account.emailLinkInvalid' },

  // API keys and their guards.
  scope_forbidden: { status: 403, text: 'apiKeys.scopeForbids' },
  key_limit_reached: { status: 403, text: 'apiKeys.limitReached' },
  too_many_keys: { status: 409, text: 'apiKeys.tooManyKeys', values: { max: API_KEYS_MAX_LIVE } },
  revoked: { status: 409, text: 'apiKeys.alreadyRevoked' },
  no_callback: { status: 409, text: 'apiKeys.noCallback' },
  callback_refused: { status: 400, text: 'apiKeys.callbackUnresolvable' },
  idempotency_in_progress: { status: 409, text: 'apiKeys.idempotencyInProgress' },
  idempotency_key_reused: { status: 422, text: 'apiKeys.idempotencyKeyReused' },
  price_above_guard: { status: 409, text: 'apiKeys.limitReached' },
  offer_below_guard: { status: 409, text: 'apiKeys.limitReached' },

  // The catalogue and buying.
  catalog_not_loaded: { status: 503, text: 'catalog.notLoaded' },
  unknown_country: { status: 400, text: 'catalog.unknownCountry' },
  unknown_operator: { status: 400, text: 'catalog.unknownOperator' },
  unknown_service: { status: 400, text: 'catalog.unknownService' },
  service_not_offered: { status: 400, text: 'rentals.serviceNotOffered' },
  out_of_stock: { status: 409, text: 'catalog.outOfStock' },
  price_changed: { status: 409, text: 'upstream.priceChanged' },
  insufficient_balance: { status: 402, text: 'numbers.insufficientBalance' },
  favourites_full: { status: 409, text: 'buying.favouritesFull', values: { max: FAVOURITES_MAX } },
  rent_catalog_busy: { status: 503, text: 'rentals.catalogBusy' },

  // An order's lifecycle.
  pending: { status: 409, text: 'numbers.stillIssuing' },
  early_cancel: { status: 409, text: 'numbers.cancelTooEarly' },
  code_arrived: { status: 409, text: 'numbers.cancelAfterCode' },
  cannot_cancel: { status: 409, text: 'numbers.cancelAfterCode' },
  cancel_window_over: { status: 409, text: 'rentals.cannotCancel' },
  sms_arrived: { status: 409, text: 'rentals.cannotCancel' },
  already_canceled: { status: 409, text: 'numbers.alreadyCanceled' },
  not_received: { status: 409, text: 'numbers.finishWithoutCode' },
  expired: { status: 409, text: 'numbers.cancelAfterExpiry' },
  ended: { status: 409, text: 'rentals.alreadyEnded' },
  no_code_yet: { status: 409, text: 'numbers.finishNeedsCode' },
  not_renewable: { status: 409, text: 'rentals.notRenewable' },
  renewal_pending: { status: 409, text: 'rentals.renewalInProgress' },
  renewal_outcome_unknown: { status: 503, text: 'rentals.renewOutcomeUnknown' },
  purchase_outcome_unknown: { status: 503, text: 'numbers.outcomeUnknown' },
  purchase_superseded: { status: 503, text: 'numbers.outcomeUnknown' },
  rent_outcome_unknown: { status: 503, text: 'rentals.outcomeUnknown' },
  rent_superseded: { status: 503, text: 'rentals.outcomeUnknown' },
  already_reported: { status: 409, text: 'buying.problemAlreadyReported' },
  not_issued: { status: 409, text: 'buying.problemNotBought' },
  upstream_duplicate_id: { status: 502, text: 'numbers.providerFault' },

  // What a supplier refused or failed at (the supplier's own words are kept for the order's history).
  upstream_no_numbers: { status: 409, text: 'upstream.noNumbers' },
  upstream_bad_request: { status: 409, text: 'upstream.refused' },
  upstream_cannot_cancel: { status: 409, text: 'upstream.cancelWindowOver' },
  upstream_early_cancel_denied: { status: 409, text: 'upstream.earlyCancel' },
  upstream_not_found: { status: 409, text: 'upstream.activationGone' },
  upstream_no_balance: { status: 503, text: 'upstream.temporarilyUnavailable' },
  upstream_account_blocked: { status: 503, text: 'upstream.temporarilyUnavailable' },
  upstream_provider_error: { status: 503, text: 'upstream.internalError' },
  upstream_configuration: { status: 503, text: 'upstream.temporarilyUnavailable' },
  upstream_unavailable: { status: 503, text: 'upstream.noAnswer' },

  // Payments.
  invoice_failed: { status: 502, text: 'topup.invoiceFailed' },
  deposit_address_failed: { status: 502, text: 'topup.depositAddressFailed' },
  invalid_amount: { status: 400, text: 'topup.notAnAmount' },
  invalid_webhook: { status: 401, text: 'topup.invalidWebhook' },
  invalid_payment_provider: { status: 400, text: 'topup.unknownProvider' },
  already_credited: { status: 409, text: 'admin.alreadyCredited' },
  still_pending: { status: 409, text: 'admin.paymentStillOpen' },

  // Support and the console.
  ticket_state: { status: 409, text: 'tickets.statusFailed' },
  already_blocked: { status: 409, text: 'admin.alreadyBlocked' },
  not_blocked: { status: 409, text: 'admin.notBlocked' },
  same_role: { status: 409, text: 'admin.sameRole' },
  not_yourself: { status: 409, text: 'admin.notYourself' },
  two_factor_not_on: { status: 409, text: 'admin.twoFactorNotOn' },
  already_refunded: { status: 409, text: 'admin.alreadyRefunded' },
  has_code: { status: 409, text: 'admin.refundHasCode' },
  has_sms: { status: 409, text: 'admin.rentHasSms' },
  no_upstream_number: { status: 409, text: 'admin.noUpstreamNumber' },
  last_provider: { status: 409, text: 'admin.lastProvider' },
  balance_below_zero: { status: 400, text: 'admin.balanceBelowZero' },
  duplicate_scope: { status: 400, text: 'admin.duplicateOverride' },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

/** The refusals of a supplier, by the kind the adapters give them. */
export type UpstreamErrorCode = Extract<ErrorCode, `upstream_${string}`>;

/** A code's own text in the current language. */
export function errorText(code: ErrorCode): string {
  const entry: ErrorEntry = errorCatalogue[code];
  return translate(entry.text, entry.values);
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorCatalogue, value);
}
