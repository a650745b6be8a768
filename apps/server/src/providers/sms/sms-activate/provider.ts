import {
  type ActiveActivationItem,
  activeActivationsAnswer,
  allSmsAnswer,
  type HistoryItem,
  historyAnswer,
  numberV2Answer,
  type ProviderAnswer,
  statusV2Answer,
} from '@simcode/sms-activate-protocol';
import type {
  ActivationMessage,
  ActivationState,
  ActiveActivation,
  RecentActivation,
  SmsProvider,
} from '../types';
import { readCatalog } from './catalog';
import { createConnection, digitsOnly, type Params, type SmsActivateProviderOptions } from './connection';
import { CANCEL_OVERRIDES, type TokenOverrides } from './errors';
import { rentOperations } from './rents';
import { parseSmsActivateWebhook } from './webhook';

export type { SmsActivateProviderOptions } from './connection';
export { parseSmsActivateWebhook } from './webhook';

const ACTIVE_ACTIVATIONS_PAGE_SIZE = 100;
const HISTORY_PAGE_SIZE = 100;
const ALL_SMS_PAGE_SIZE = 100;
/** A server that ignores `page` would answer the first page for ever. */
const ALL_SMS_MAX_PAGES = 10;
/** Answers to setStatus that mean "done"; Hero may answer 204 with no body instead. */
const SET_STATUS_SUCCESS = new Set([
  'ACCESS_CANCEL',
  'ACCESS_ACTIVATION',
  'ACCESS_RETRY_GET',
  'ACCESS_READY',
]);
/** Hero's numeric activation states (docs/protocols.md A.5); 1 and 7 are undocumented and read as active. */
const CANCELLED_STATUSES = new Set(['8', '10']);
const FINISHED_STATUS = '6';
const RETRY_STATUS = '3';

/**
 * The state of an activation in a list (getActiveActivations, getHistory): its numeric status (Hero's
 * mapping, protocols.md A.5) and the codes or texts listed with it, oldest first.
 */
function listedState(
  status: string | undefined,
  codes: string[],
  lastText: string | undefined,
): ActivationState {
  const lastCode = codes.at(-1);
  if (status !== undefined && CANCELLED_STATUSES.has(status)) return { kind: 'cancelled' };
  if (status === FINISHED_STATUS) return { kind: 'finished' };
  if (lastCode === undefined) return { kind: 'waiting' };
  if (status === RETRY_STATUS) return { kind: 'waiting_retry', lastCode };
  return { kind: 'code', code: lastCode, text: lastText };
}

/** Prices go upstream with a dot and no exponent, at most 4 decimals: `0.0250`, never `2.5e-2`. */
function formatPrice(price: number): string {
  return price.toFixed(4).replace(/\.?0+$/, '');
}

/** getStatus's text tokens (also getStatusV2's plain-text answers); undefined for anything else. */
function statusOf(answer: ProviderAnswer): ActivationState | undefined {
  if (answer.type !== 'token') return undefined;
  switch (answer.token) {
    case 'STATUS_WAIT_CODE':
    case 'STATUS_WAIT_RESEND':
      return { kind: 'waiting' };
    case 'STATUS_WAIT_RETRY':
      return { kind: 'waiting_retry', lastCode: answer.payload ?? '' };
    case 'STATUS_OK':
      return { kind: 'code', code: answer.payload ?? '' };
    case 'STATUS_CANCEL':
      return { kind: 'cancelled' };
    case 'STATUS_FINISH':
      return { kind: 'finished' };
    default:
      return undefined;
  }
}

/**
 * An SmsProvider for any SMS-Activate-compatible `handler_api.php` (HeroSMS, SMS-Bower, Grizzly, the
 * built-in simulator ...). Every call is a GET with the key in the query string, as the providers' own
 * clients do; URLs are therefore never logged.
 */
export function createSmsActivateProvider(options: SmsActivateProviderOptions): SmsProvider {
  const connection = createConnection(options);
  const {
    call,
    failure,
    readJson,
    optionalCall,
    ids,
    zoned,
    name,
    timeZone,
    providerCountry,
    providerService,
    operatorParam,
  } = connection;

  async function setStatus(id: string, status: number, override?: TokenOverrides) {
    const answer = await call('setStatus', { id, status }, 'write');
    if (answer.type === 'empty') return;
    if (answer.type === 'token' && SET_STATUS_SUCCESS.has(answer.token)) return;
    throw failure('setStatus', answer, 'write', override);
  }

  async function readStatus(activationId: string): Promise<ActivationState> {
    const answer = await call('getStatus', { id: activationId }, 'read');
    const state = statusOf(answer);
    if (state) return state;
    throw failure('getStatus', answer, 'read');
  }

  function activeActivation(item: ActiveActivationItem): ActiveActivation {
    const codes = item.smsCode ?? [];
    const serviceCode = item.serviceCode ?? '';
    return {
      activationId: item.activationId,
      phoneNumber: digitsOnly(item.phoneNumber),
      service: ids.serviceToCanonical(serviceCode) ?? serviceCode,
      countryId: item.countryCode == null ? null : (ids.countryToIso(item.countryCode) ?? null),
      state: listedState(item.activationStatus, codes, item.smsText?.at(-1)),
      codes,
      smsText: item.smsText?.at(-1),
      activatedAt: zoned(item.activationTime ?? undefined),
    };
  }

  function recentActivation(item: HistoryItem): RecentActivation {
    const messages = item.sms ?? [];
    return {
      activationId: item.id,
      phoneNumber: digitsOnly(item.phone),
      state: listedState(item.status, messages, messages.at(-1)),
      activatedAt: zoned(item.date ?? undefined),
      messages,
      cost: item.cost ?? undefined,
    };
  }

  /** The last SMS as getStatusV2 (or getStatus) tells it: for providers without getAllSms. */
  async function lastMessage(activationId: string): Promise<ActivationMessage[]> {
    const state = await provider.getActivationStateWithText!(activationId);
    if (state.kind === 'code') return [{ code: state.code, text: state.text ?? state.code }];
    if (state.kind === 'waiting_retry') return [{ code: state.lastCode, text: state.lastCode }];
    return [];
  }

  const provider: SmsProvider = {
    name,

    getCatalog: () => readCatalog(connection),

    async buyActivation(request) {
      const params: Params = {
        service: providerService(request.service, 'write'),
        country: providerCountry(request.countryId, 'write'),
        operator: operatorParam(request.operator),
        maxPrice: formatPrice(request.maxPrice),
        resellerUserId: options.sendsResellerUserId ? request.customerRef : undefined,
      };
      const answer = await call('getNumberV2', params, 'write');
      if (answer.type === 'json') {
        const bought = readJson('getNumberV2', answer, numberV2Answer, 'write');
        return {
          activationId: bought.activationId,
          phoneNumber: digitsOnly(bought.phoneNumber),
          cost: bought.activationCost ?? undefined,
          expiresAt: zoned(bought.activationEndTime ?? undefined),
        };
      }
      // Providers without V2 answer BAD_ACTION, which is safe to follow with the classic call.
      const classic =
        (answer.type === 'token' || answer.type === 'error') && answer.token === 'BAD_ACTION'
          ? await call('getNumber', params, 'write')
          : answer;
      if (classic.type === 'token' && classic.token === 'ACCESS_NUMBER' && classic.payload) {
        const colon = classic.payload.indexOf(':');
        const activationId = classic.payload.slice(0, colon);
        const phoneNumber = digitsOnly(classic.payload.slice(colon + 1));
        if (colon > 0 && phoneNumber !== '') return { activationId, phoneNumber };
      }
      throw failure('getNumber', classic, 'write');
    },

    getActivationState: readStatus,

    async getActivationStateWithText(activationId) {
      const answer = await optionalCall('getStatusV2', { id: activationId });
      // A provider without V2 is read with the classic call.
      if (!answer) return readStatus(activationId);
      if (answer.type === 'json') {
        const sms = readJson('getStatusV2', answer, statusV2Answer, 'read');
        return sms ? { kind: 'code', code: sms.code, text: sms.text } : { kind: 'waiting' };
      }
      // V2's plain-text answers (STATUS_CANCEL) are getStatus's own.
      const state = statusOf(answer);
      if (state) return state;
      throw failure('getStatusV2', answer, 'read');
    },

    async getBalance() {
      const answer = await call('getBalance', {}, 'read');
      const amount =
        answer.type === 'token' && answer.token === 'ACCESS_BALANCE' ? Number(answer.payload) : Number.NaN;
      if (Number.isFinite(amount)) return amount;
      throw failure('getBalance', answer, 'read');
    },

    cancelActivation: (activationId) => setStatus(activationId, 8, CANCEL_OVERRIDES),
    finishActivation: (activationId) => setStatus(activationId, 6),
    requestAnotherSms: (activationId) => setStatus(activationId, 3),

    async listActiveActivations(page) {
      const answer = await call(
        'getActiveActivations',
        {
          start: Math.max(0, Math.floor(page)) * ACTIVE_ACTIVATIONS_PAGE_SIZE,
          limit: ACTIVE_ACTIVATIONS_PAGE_SIZE,
        },
        'read',
      );
      // "Nothing active" comes as a JSON error, a Hero error, or a plain-text token on HTTP 200.
      if ((answer.type === 'error' || answer.type === 'token') && answer.token === 'NO_ACTIVATIONS')
        return { items: [], hasMore: false };
      const items = readJson('getActiveActivations', answer, activeActivationsAnswer, 'read');
      return { items: items.map(activeActivation), hasMore: items.length >= ACTIVE_ACTIVATIONS_PAGE_SIZE };
    },

    async listActivationMessages(activationId) {
      const messages: ActivationMessage[] = [];
      let listed = 0;
      for (let page = 1; page <= ALL_SMS_MAX_PAGES; page++) {
        const answer = await optionalCall('getAllSms', { id: activationId, page, size: ALL_SMS_PAGE_SIZE });
        if (!answer) return lastMessage(activationId);
        // Hero keeps no SMS of a cancelled or refunded activation.
        if ((answer.type === 'error' || answer.type === 'token') && answer.token === 'ACTIVATION_NOT_ACTIVE')
          return [];
        const { data, meta } = readJson('getAllSms', answer, allSmsAnswer, 'read');
        listed += data.length;
        for (const sms of data) {
          const code = sms.code?.trim() || undefined;
          const text = sms.text ?? code;
          if (text === undefined) continue;
          messages.push({
            code,
            text,
            from: sms.phoneFrom ?? undefined,
            receivedAt: zoned(sms.date ?? undefined),
          });
        }
        // A short page is the last, as is one that reaches the total.
        if (data.length < ALL_SMS_PAGE_SIZE || listed >= (meta?.total ?? 0)) break;
      }
      return messages.sort(
        (left, right) => (left.receivedAt?.getTime() ?? 0) - (right.receivedAt?.getTime() ?? 0),
      );
    },

    async listRecentActivations(sinceMs, page = 0) {
      const pageSize = HISTORY_PAGE_SIZE;
      const answer = await call(
        'getHistory',
        {
          start: Math.max(0, Math.floor(sinceMs / 1000)),
          offset: Math.max(0, Math.floor(page)) * pageSize,
          // SMS-Activate calls the page size `limit`, Hero `size`.
          limit: pageSize,
          size: pageSize,
        },
        'read',
      );
      // Older servers of the family say "nothing" as an error, as they do for active activations.
      if ((answer.type === 'error' || answer.type === 'token') && answer.token === 'NO_ACTIVATIONS')
        return { items: [], hasMore: false };
      const items = readJson('getHistory', answer, historyAnswer, 'read');
      return { items: items.map(recentActivation), hasMore: items.length >= pageSize };
    },

    ...rentOperations(connection),

    parseWebhook(body) {
      return parseSmsActivateWebhook(body, timeZone);
    },
  };
  return provider;
}
