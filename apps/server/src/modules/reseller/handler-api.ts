import type { ErrorCode } from '@simcode/contract';
import {
  ProtocolRefusal,
  type ProtocolReply,
  type RefusalToken,
  renderRefusal,
} from '@simcode/sms-activate-protocol';
import { AppError } from '../../lib/errors';
import { KeyCapError } from '../api-keys/service';
import { createActivationActions } from './activation-actions';
import { createCatalogActions } from './catalog-actions';
import type { Call, Handler, ResellerDeps } from './deps';
import { createRentActions } from './rent-actions';

/** The protocol's tokens for our services' refusals (their stable `code`). */
const TOKEN_OF_CODE: Readonly<Partial<Record<ErrorCode, RefusalToken>>> = {
  insufficient_balance: 'NO_BALANCE',
  price_changed: 'WRONG_MAX_PRICE',
  out_of_stock: 'NO_NUMBERS',
  upstream_no_numbers: 'NO_NUMBERS',
  unknown_operator: 'NO_NUMBERS',
  // The key's own guards (price ceiling, delivery floor) leave no number it may buy: the protocol has no
  // token of its own for them, and NO_NUMBERS is what its clients handle (another country, later).
  price_above_guard: 'NO_NUMBERS',
  offer_below_guard: 'NO_NUMBERS',
  unknown_service: 'BAD_SERVICE',
  service_not_offered: 'BAD_SERVICE',
  unknown_country: 'BAD_COUNTRY',
  not_found: 'NO_ACTIVATION',
  early_cancel: 'EARLY_CANCEL_DENIED',
  code_arrived: 'BAD_STATUS',
  cannot_cancel: 'BAD_STATUS',
  already_canceled: 'NO_ACTIVATION',
  expired: 'NO_ACTIVATION',
  pending: 'NO_ACTIVATION',
  rate_limited: 'BANNED',
  buyer_throttled: 'BANNED',
  // A URL given with a purchase (a rent's `url`) that SimCode will not post to.
  invalid_request: 'INVALID_PARAMETER',
  callback_refused: 'INVALID_PARAMETER',
};
/** The rent actions' own words for the same refusals. */
const RENT_TOKEN_OF_CODE: Readonly<Partial<Record<ErrorCode, RefusalToken>>> = {
  ...TOKEN_OF_CODE,
  unknown_country: 'WRONG_COUNTRY',
  not_found: 'INVALID_PHONE',
  cancel_window_over: 'CANT_CANCEL',
  sms_arrived: 'CANT_CANCEL',
  cannot_cancel: 'CANT_CANCEL',
  renewal_pending: 'CANT_CANCEL',
  ended: 'RENT_DIE',
  pending: 'INVALID_PHONE',
};

const BUY_ACTIONS = new Set(['getNumber', 'getNumberV2', 'getRentNumber', 'continueRentNumber']);
const RENT_ACTIONS = new Set([
  'getRentServicesAndCountries',
  'getRentNumber',
  'getRentStatus',
  'setRentStatus',
  'getRentList',
  'continueRentNumber',
  'getContinueRentPriceNumber',
]);

/** Any failure of an action, as the protocol's token: nothing escapes as an HTTP error. */
export function refusalOf(error: unknown, action: string): ProtocolRefusal {
  if (error instanceof ProtocolRefusal) return error;
  if (error instanceof KeyCapError) return new ProtocolRefusal('NO_BALANCE');
  const rent = RENT_ACTIONS.has(action);
  if (error instanceof AppError) {
    const token = (rent ? RENT_TOKEN_OF_CODE : TOKEN_OF_CODE)[error.code];
    // A price refusal names the price a purchase can succeed at, as WRONG_MAX_PRICE does.
    const price = error.details?.price;
    if (token) return new ProtocolRefusal(token, typeof price === 'number' ? price.toFixed(2) : undefined);
    if (error.statusCode === 402) return new ProtocolRefusal('NO_BALANCE');
    if (error.code.startsWith('upstream_') || error.statusCode >= 500)
      return new ProtocolRefusal(BUY_ACTIONS.has(action) ? 'NO_NUMBERS' : 'ERROR_SQL');
    return new ProtocolRefusal('BAD_ACTION');
  }
  return new ProtocolRefusal('ERROR_SQL');
}

/**
 * The SMS-Activate protocol over our services: catalog, one-time number and rent actions, each group in a
 * file of its own. Every action answers in the style of the path it was called by.
 */
export function createHandlerApi(deps: ResellerDeps) {
  const { apiKeys, clock, log } = deps;
  const handlers: Readonly<Record<string, Handler>> = {
    ...createCatalogActions(deps),
    ...createActivationActions(deps),
    ...createRentActions(deps),
  };

  return {
    actions: Object.keys(handlers),
    /** Runs one action; refusals are rendered, never thrown. Cap refusals are written to the key's log. */
    async answer(action: string, call: Call): Promise<ProtocolReply> {
      try {
        if (!Object.hasOwn(handlers, action)) throw new ProtocolRefusal('BAD_ACTION');
        return await handlers[action]!(call);
      } catch (error) {
        if (error instanceof KeyCapError)
          await apiKeys.note(error.apiKeyId, 'cap_refused', `${action}: ${error.detail}`).catch(() => {});
        else if (!(error instanceof ProtocolRefusal) && !(error instanceof AppError))
          log.error({ err: error, action }, 'reseller API action failed');
        return renderRefusal(refusalOf(error, action), action, call.style, clock.now().getTime());
      }
    },
  };
}

export type HandlerApi = ReturnType<typeof createHandlerApi>;
