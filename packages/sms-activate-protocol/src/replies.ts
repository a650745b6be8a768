import { PROTOCOL_ACTIONS, protocolAction, type ResponseStyle } from './actions';
import { bannedDate, saDateTime } from './dates';
import type { ProtocolRefusal, RefusalToken } from './refusals';

/** One answer of a server of ours: the HTTP status, the content type (none for 204), headers and the body. */
export interface ProtocolReply {
  status: number;
  contentType?: string;
  /** Headers the answer needs besides the content type (Retry-After on BANNED). */
  headers?: Readonly<Record<string, string>>;
  body: string;
}

export const TEXT_TYPE = 'text/plain; charset=utf-8';
export const JSON_TYPE = 'application/json; charset=utf-8';
/** The ISO 4217 numeric code for USD, which answers that name a currency give. */
export const USD_CURRENCY = 840;
/** A cancel within this long after purchase is refused (EARLY_CANCEL_DENIED), as real providers do. */
export const EARLY_CANCEL_MS = 2 * 60 * 1000;
/** How long BANNED says the key is blocked for when the refusal names no end. */
const BAN_MS = 30 * 60 * 1000;

export const text = (body: string, status = 200): ProtocolReply => ({ status, contentType: TEXT_TYPE, body });
export const json = (value: unknown, status = 200): ProtocolReply => ({
  status,
  contentType: JSON_TYPE,
  body: JSON.stringify(value),
});
export const noContent: ProtocolReply = { status: 204, body: '' };

/** Dollars as the protocol writes them: `12.50`. */
export function formatUsd(value: number): string {
  return value.toFixed(2);
}

/** A classic list: an object keyed by position ("0", "1", ...), as SMS-Activate sends its lists. */
export function indexed<T>(items: readonly T[]): Record<string, T> {
  return Object.fromEntries(items.map((item, index) => [String(index), item]));
}

/**
 * Classic servers have no OTP_RECEIVED or ACTIVATION_NOT_ACTIVE, and no word for a malformed parameter;
 * these are their nearest answers.
 */
const CLASSIC_TOKENS: Partial<Record<RefusalToken, RefusalToken>> = {
  OTP_RECEIVED: 'BAD_STATUS',
  ACTIVATION_NOT_ACTIVE: 'NO_ACTIVATION',
  INVALID_PARAMETER: 'BAD_ACTION',
};
const HERO_TITLES: Partial<Record<RefusalToken, RefusalToken>> = {
  NO_ACTIVATION: 'NOT_FOUND',
  INVALID_PHONE: 'NOT_FOUND',
  INVALID_PARAMETER: 'UNPROCESSABLE_ENTITY',
};
const HERO_STATUS: Partial<Record<RefusalToken, number>> = {
  BAD_KEY: 401,
  NO_BALANCE: 402,
  BANNED: 403,
  CHANNELS_LIMIT: 403,
  SERVICE_NOT_AVAILABLE: 403,
  ACCOUNT_INACTIVE: 403,
  NOT_FOUND: 404,
  BAD_ACTION: 404,
  NO_NUMBERS: 404,
  NO_ACTIVATIONS: 404,
  OPERATORS_NOT_FOUND: 404,
  EARLY_CANCEL_DENIED: 409,
  OTP_RECEIVED: 409,
  NEW_OTP_RECEIVED: 409,
  FREE_CANCELLATION_EXPIRED: 409,
  ACTIVATION_NOT_ACTIVE: 409,
  CANT_CANCEL: 409,
  ALREADY_FINISH: 409,
  ALREADY_CANCEL: 409,
  RENT_DIE: 409,
  NO_KEY: 422,
  UNPROCESSABLE_ENTITY: 422,
  SERVER_ERROR: 500,
  ERROR_SQL: 500,
};
const HERO_DETAILS: Partial<Record<RefusalToken, string>> = {
  BAD_KEY: 'Unauthorized',
  NO_KEY: 'The api key field is required.',
  NO_BALANCE: 'Payment Required',
  NOT_FOUND: 'Activation Not Found',
  BAD_ACTION: 'Method Not Found',
  SERVER_ERROR: 'Internal Server Error',
  EARLY_CANCEL_DENIED: 'Activation cannot be cancelled yet',
  OTP_RECEIVED: 'Activation already received a code',
  UNPROCESSABLE_ENTITY: 'The given data was invalid.',
};
/** Rent states travel as errors in both styles: they are answers, not failures. */
const RENT_STATE_TOKENS: ReadonlySet<RefusalToken> = new Set([
  'STATUS_WAIT_CODE',
  'STATUS_CANCEL',
  'STATUS_FINISH',
  'STATUS_REVOKE',
]);

/** Whole seconds until a ban ends, at least one: Retry-After's and Hero's `retry_after_seconds`. */
function secondsUntil(untilMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
}

function heroInfo(refusal: ProtocolRefusal, nowMs: number): Record<string, unknown> | undefined {
  switch (refusal.token) {
    case 'EARLY_CANCEL_DENIED':
      return { minActivationTime: EARLY_CANCEL_MS / 1000 };
    case 'WRONG_MAX_PRICE':
      return { min: Number(refusal.payload) };
    case 'BANNED': {
      const untilMs = refusal.untilMs ?? nowMs + BAN_MS;
      return {
        scope: 'global',
        banned_until: Math.floor(untilMs / 1000),
        retry_after_seconds: secondsUntil(untilMs, nowMs),
        readable_date: saDateTime(untilMs),
      };
    }
    case 'CHANNELS_LIMIT':
      return { current_threads: 10, max_allowed: 10 };
    default:
      return undefined;
  }
}

/**
 * A refusal of an action as a server of the style tells it. Classic: HTTP 200 and the token where the
 * action puts it (text, or JSON `message` / `error`); Hero: an HTTP status and `{title, details, info}`.
 * BANNED says when to come back in both, and in Retry-After.
 */
export function renderRefusal(
  refusal: ProtocolRefusal,
  actionName: string,
  style: ResponseStyle,
  nowMs: number,
): ProtocolReply {
  const reply = renderRefusalBody(refusal, actionName, style, nowMs);
  if (refusal.token !== 'BANNED') return reply;
  const untilMs = refusal.untilMs ?? nowMs + BAN_MS;
  return { ...reply, headers: { 'retry-after': String(secondsUntil(untilMs, nowMs)) } };
}

function renderRefusalBody(
  refusal: ProtocolRefusal,
  actionName: string,
  style: ResponseStyle,
  nowMs: number,
): ProtocolReply {
  const action = protocolAction(actionName);
  const shape = action ? PROTOCOL_ACTIONS[action].refusal : 'text';
  if (RENT_STATE_TOKENS.has(refusal.token)) return json({ status: 'error', message: refusal.token });
  if (style === 'hero') {
    // Hero answers an empty shelf on a buy with the classic text, and everything else as JSON.
    if (refusal.token === 'NO_NUMBERS' && (action === 'getNumber' || action === 'getNumberV2'))
      return text('NO_NUMBERS');
    const title = HERO_TITLES[refusal.token] ?? refusal.token;
    return json(
      {
        title,
        details: HERO_DETAILS[title] ?? title.toLowerCase().replaceAll('_', ' '),
        info: heroInfo(refusal, nowMs),
      },
      HERO_STATUS[title] ?? 400,
    );
  }
  const token = CLASSIC_TOKENS[refusal.token] ?? refusal.token;
  const payload = token === 'BANNED' ? bannedDate(refusal.untilMs ?? nowMs + BAN_MS) : refusal.payload;
  if (shape === 'message') return json({ status: 'error', message: token });
  if (shape === 'error') return json({ status: 'error', error: token });
  return text(payload === undefined ? token : `${token}:${payload}`);
}
