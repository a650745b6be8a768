import { english } from '@simcode/contract';
import { isRefusalToken, type RefusalToken } from '@simcode/sms-activate-protocol';
import { UpstreamError, type UpstreamErrorKind } from '../types';

/** Reads may be repeated freely; a write (buy, cancel, finish, rent, extend) may have happened even when it failed. */
export type CallMode = 'read' | 'write';

export interface TokenMeaning {
  kind: UpstreamErrorKind;
  message: string;
}

/** Another meaning for some tokens where one action uses them in a narrower sense. */
export type TokenOverrides = Readonly<Partial<Record<RefusalToken, TokenMeaning>>>;

/**
 * Sentences users see, kept in English (a refusal may be stored with an order): the answers and pages show
 * them in the reader's language through the shared catalogue (`localizeEnglish`). Trouble with our own
 * account at the provider (balance, ban, key) is told as a temporary outage: the user can do nothing about
 * it, and it is nobody's business that our balance is low.
 */
export const upstreamMessages = english.upstream;

const unavailableToUsers = (kind: UpstreamErrorKind): TokenMeaning => ({
  kind,
  message: upstreamMessages.temporarilyUnavailable,
});
const refused: TokenMeaning = { kind: 'bad_request', message: upstreamMessages.refused };
const noNumbers: TokenMeaning = { kind: 'no_numbers', message: upstreamMessages.noNumbers };
const serviceUnavailable: TokenMeaning = { kind: 'no_numbers', message: upstreamMessages.serviceUnavailable };
const providerError: TokenMeaning = { kind: 'provider_error', message: upstreamMessages.internalError };
const activationGone: TokenMeaning = { kind: 'not_found', message: upstreamMessages.activationGone };
const codeReceived: TokenMeaning = { kind: 'cannot_cancel', message: upstreamMessages.codeReceived };

/** What each refusal token of the protocol means to us; the compiler keeps it complete. */
const TOKENS: Readonly<Record<RefusalToken, TokenMeaning>> = {
  // Global (A.3) and Hero's account errors.
  BAD_KEY: unavailableToUsers('configuration'),
  NO_KEY: unavailableToUsers('configuration'),
  EMPTY_KEY: unavailableToUsers('configuration'),
  BAD_ACTION: refused,
  BAD_SERVICE: { kind: 'bad_request', message: upstreamMessages.badService },
  BAD_STATUS: refused,
  ERROR_SQL: providerError,
  SQL_ERROR: providerError,
  SERVER_ERROR: providerError,
  BANNED: unavailableToUsers('account_blocked'),
  ACCOUNT_INACTIVE: unavailableToUsers('account_blocked'),
  CHANNELS_LIMIT: unavailableToUsers('account_blocked'),
  NO_BALANCE: unavailableToUsers('no_balance'),
  NO_ACTIVATION: activationGone,
  NOT_FOUND: activationGone,
  WRONG_ACTIVATION_ID: activationGone,
  // Buying (A.4.2, A.4.3).
  NO_NUMBERS: noNumbers,
  WRONG_MAX_PRICE: { kind: 'no_numbers', message: upstreamMessages.priceChanged },
  SERVICE_NOT_AVAILABLE: serviceUnavailable,
  NOT_AVAILABLE: serviceUnavailable,
  WHATSAPP_NOT_AVAILABLE: serviceUnavailable,
  // Grizzly's refusals: the service is not sold in this region, or not sold at all (a sentence, answer.ts).
  SERVICE_UNAVAILABLE_REGION: serviceUnavailable,
  SERVICE_PROHIBITED: serviceUnavailable,
  BAD_COUNTRY: { kind: 'bad_request', message: upstreamMessages.badCountry },
  WRONG_EXCEPTION_PHONE: refused,
  ORDER_ALREADY_EXISTS: refused,
  NO_BALANCE_FORWARD: unavailableToUsers('no_balance'),
  BAD_BALANCE: unavailableToUsers('no_balance'),
  NO_YULA_MAIL: unavailableToUsers('no_balance'),
  // Changing an activation's status (A.4.7) and Hero's 409 family.
  EARLY_CANCEL_DENIED: { kind: 'early_cancel_denied', message: upstreamMessages.earlyCancel },
  OTP_RECEIVED: codeReceived,
  NEW_OTP_RECEIVED: codeReceived,
  FREE_CANCELLATION_EXPIRED: { kind: 'cannot_cancel', message: upstreamMessages.cancelWindowOver },
  ACTIVATION_NOT_ACTIVE: activationGone,
  ACCESS_CANCEL_ALREADY: activationGone,
  ALREADY_CANCELED: activationGone,
  // Lists and the actions we do not call (A.4.8, A.4.13, A.4.15).
  NO_ACTIVATIONS: activationGone,
  OPERATORS_NOT_FOUND: { kind: 'bad_request', message: upstreamMessages.badOperator },
  WRONG_ADDITIONAL_SERVICE: refused,
  REPEAT_ADDITIONAL_SERVICE: refused,
  WRONG_SECURITY: refused,
  RENEW_ACTIVATION_NOT_AVAILABLE: refused,
  NEW_ACTIVATION_IMPOSSIBLE: refused,
  CALL_TASK_ALREADY_EXIST: refused,
  NUMBER_NOT_EXIST: activationGone,
  // getHistory's dates (more than 30 days back, or not Unix times); Hero's 422 for a malformed parameter.
  WRONG_DATE: refused,
  UNPROCESSABLE_ENTITY: refused,
  INVALID_PARAMETER: refused,
  // SMS-Activate's top-country list for a service it does not know; a rent catalog with nothing in it.
  WRONG_SERVICE: { kind: 'bad_request', message: upstreamMessages.badService },
  OUT_OF_STOCK: noNumbers,
  // Rent (A.6). The STATUS_* tokens are states where a state is expected; anywhere else they are errors.
  NO_ID_RENT: refused,
  INVALID_PHONE: { kind: 'not_found', message: upstreamMessages.rentGone },
  INCORECT_STATUS: refused,
  INCORRECT_STATUS: refused,
  ALREADY_FINISH: { kind: 'not_found', message: upstreamMessages.rentFinished },
  ALREADY_CANCEL: { kind: 'not_found', message: upstreamMessages.rentCancelled },
  CANT_CANCEL: { kind: 'cannot_cancel', message: upstreamMessages.rentCancelRefused },
  RENT_DIE: { kind: 'not_found', message: upstreamMessages.rentEnded },
  INVALID_TIME: { kind: 'bad_request', message: upstreamMessages.badRentTime },
  WRONG_COUNTRY: { kind: 'bad_request', message: upstreamMessages.badCountry },
  WRONG_OPERATOR: { kind: 'bad_request', message: upstreamMessages.badOperator },
  STATUS_WAIT_CODE: { kind: 'provider_error', message: upstreamMessages.unexpectedAnswer },
  STATUS_CANCEL: activationGone,
  STATUS_FINISH: activationGone,
  STATUS_REVOKE: activationGone,
};

/** SA-Java treats any answer mentioning SQL as a database error; Hero's site knows `ERROR_SQL25`. */
function meaningOf(token: string, httpStatus: number | undefined): TokenMeaning {
  if (isRefusalToken(token)) return TOKENS[token];
  if (token.includes('SQL')) return providerError;
  if (httpStatus === 401) return unavailableToUsers('configuration');
  if (httpStatus !== undefined && httpStatus >= 500) return providerError;
  // An unknown answer to a buy may hide a bought number: it is reported as unknown, never as a refusal.
  return { kind: 'provider_error', message: upstreamMessages.unexpectedAnswer };
}

/** The state-changing call may have taken effect although it failed here. */
function outcomeUnknown(kind: UpstreamErrorKind, mode: CallMode): boolean {
  return mode === 'write' && (kind === 'unavailable' || kind === 'provider_error');
}

/** Answers that are the provider failing whatever the action was: worth another try when reading. */
export function isProviderFailure(token: string, httpStatus: number | undefined): boolean {
  return token === 'SERVER_ERROR' || token.includes('SQL') || (httpStatus !== undefined && httpStatus >= 500);
}

export function isRetryable(error: UpstreamError): boolean {
  return error.kind === 'unavailable' || error.kind === 'provider_error';
}

export function errorForToken(
  token: string,
  mode: CallMode,
  options: {
    httpStatus?: number;
    override?: TokenOverrides;
    /** The token's payload: WRONG_MAX_PRICE's is the lowest price the provider sells at. */
    payload?: string;
  } = {},
): UpstreamError {
  const meaning =
    (isRefusalToken(token) ? options.override?.[token] : undefined) ?? meaningOf(token, options.httpStatus);
  const minPrice = token === 'WRONG_MAX_PRICE' ? Number(options.payload) : Number.NaN;
  return new UpstreamError(
    meaning.kind,
    token,
    meaning.message,
    outcomeUnknown(meaning.kind, mode),
    minPrice > 0 ? minPrice : undefined,
  );
}

/** No usable answer at all: timeout, refused connection, HTML page, garbage. */
export function unavailableError(description: string, mode: CallMode): UpstreamError {
  return new UpstreamError('unavailable', description, upstreamMessages.noAnswer, mode === 'write');
}

/** A well-formed answer of the wrong shape for the action. */
export function unexpectedAnswerError(description: string, mode: CallMode): UpstreamError {
  return new UpstreamError(
    'provider_error',
    description,
    upstreamMessages.unexpectedAnswer,
    outcomeUnknown('provider_error', mode),
  );
}

/** Cancelling sends only status 8, so BAD_STATUS there means "not from this state": a code already arrived. */
export const CANCEL_OVERRIDES: TokenOverrides = { BAD_STATUS: codeReceived };
