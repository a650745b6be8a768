/**
 * Every refusal token of the family that we know of (docs/protocols.md A.3, A.4.x, A.6 and Hero's JSON
 * titles): what servers answer instead of a success, and what a client must understand. A server of ours
 * refuses only with these; a client still meets others (the family keeps inventing them) and reads those
 * as unknown answers.
 */
export const REFUSAL_TOKENS = [
  // Global (A.3) and Hero's account errors.
  'BAD_KEY',
  'NO_KEY',
  'EMPTY_KEY',
  'BAD_ACTION',
  'BAD_SERVICE',
  'BAD_STATUS',
  'ERROR_SQL',
  'SQL_ERROR',
  'SERVER_ERROR',
  'BANNED',
  'ACCOUNT_INACTIVE',
  'CHANNELS_LIMIT',
  'NO_BALANCE',
  'NO_ACTIVATION',
  'NOT_FOUND',
  'WRONG_ACTIVATION_ID',
  // Buying (A.4.2, A.4.3).
  'NO_NUMBERS',
  'WRONG_MAX_PRICE',
  'SERVICE_NOT_AVAILABLE',
  'NOT_AVAILABLE',
  'WHATSAPP_NOT_AVAILABLE',
  // Grizzly's: the service is not sold in this region, or not sold at all (a sentence there).
  'SERVICE_UNAVAILABLE_REGION',
  'SERVICE_PROHIBITED',
  'BAD_COUNTRY',
  'WRONG_EXCEPTION_PHONE',
  'ORDER_ALREADY_EXISTS',
  'NO_BALANCE_FORWARD',
  'BAD_BALANCE',
  'NO_YULA_MAIL',
  // Changing an activation's status (A.4.7) and Hero's 409 family.
  'EARLY_CANCEL_DENIED',
  'OTP_RECEIVED',
  'NEW_OTP_RECEIVED',
  'FREE_CANCELLATION_EXPIRED',
  'ACTIVATION_NOT_ACTIVE',
  'ACCESS_CANCEL_ALREADY',
  'ALREADY_CANCELED',
  // Lists and the rarer actions (A.4.8, A.4.13, A.4.15).
  'NO_ACTIVATIONS',
  'OPERATORS_NOT_FOUND',
  'WRONG_ADDITIONAL_SERVICE',
  'REPEAT_ADDITIONAL_SERVICE',
  'WRONG_SECURITY',
  'RENEW_ACTIVATION_NOT_AVAILABLE',
  'NEW_ACTIVATION_IMPOSSIBLE',
  'CALL_TASK_ALREADY_EXIST',
  'NUMBER_NOT_EXIST',
  // getHistory's dates; Hero's 422 for a malformed parameter.
  'WRONG_DATE',
  'UNPROCESSABLE_ENTITY',
  // A malformed parameter as a server of ours says it before rendering: classic servers have no word for it
  // (BAD_ACTION), Hero answers UNPROCESSABLE_ENTITY.
  'INVALID_PARAMETER',
  // SMS-Activate's top-country list for a service it does not know; a rent catalog with nothing in it.
  'WRONG_SERVICE',
  'OUT_OF_STOCK',
  // Rent (A.6). The STATUS_* tokens are states where a state is expected; anywhere else they are errors.
  'NO_ID_RENT',
  'INVALID_PHONE',
  'INCORECT_STATUS',
  'INCORRECT_STATUS',
  'ALREADY_FINISH',
  'ALREADY_CANCEL',
  'CANT_CANCEL',
  'RENT_DIE',
  'INVALID_TIME',
  'WRONG_COUNTRY',
  'WRONG_OPERATOR',
  'STATUS_WAIT_CODE',
  'STATUS_CANCEL',
  'STATUS_FINISH',
  'STATUS_REVOKE',
] as const;

export type RefusalToken = (typeof REFUSAL_TOKENS)[number];

const KNOWN: ReadonlySet<string> = new Set(REFUSAL_TOKENS);

export function isRefusalToken(token: string): token is RefusalToken {
  return KNOWN.has(token);
}

/** A refusal in protocol terms, thrown by a server's action and rendered in the server's style. */
export class ProtocolRefusal extends Error {
  constructor(
    readonly token: RefusalToken,
    /** What classic servers write after the colon: WRONG_MAX_PRICE's lowest price. */
    readonly payload?: string,
    /** BANNED's end: classic servers write it after the colon, Hero in `info`, both say it in Retry-After. */
    readonly untilMs?: number,
  ) {
    super(payload === undefined ? token : `${token}:${payload}`);
    this.name = 'ProtocolRefusal';
  }
}

/** The account is blocked until a time: a rate limit's answer, in the protocol's own words. */
export function bannedUntil(untilMs: number): ProtocolRefusal {
  return new ProtocolRefusal('BANNED', undefined, untilMs);
}
