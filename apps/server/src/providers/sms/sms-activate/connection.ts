import {
  createIdTranslator,
  inProviderZone,
  type ProviderAnswer,
  type ProviderIdMap,
  parseAnswer,
} from '@simcode/sms-activate-protocol';
import type { z } from 'zod';
import { callForText, describeCallFailure } from '../../../lib/outgoing-http';
import type { SmsLogger } from '../logger';
import { UpstreamError } from '../types';
import {
  type CallMode,
  errorForToken,
  isProviderFailure,
  isRetryable,
  type TokenOverrides,
  unavailableError,
  unexpectedAnswerError,
} from './errors';

export interface SmsActivateProviderOptions {
  /** The provider's `handler_api.php` URL; a function when it is only known later (the built-in simulator). */
  baseUrl: string | (() => string);
  apiKey: string;
  /** Limit for one HTTP exchange, body included. */
  timeoutMs: number;
  idMap?: ProviderIdMap;
  logger?: SmsLogger;
  /** Pause before the first retry of a failed read, doubled before the second. */
  retryBackoffMs?: number;
  /** How logs and `SmsProvider.name` call this provider. */
  name?: string;
  /** The IANA zone its zone-less dates are written in (`Europe/Moscow`); UTC unless told. */
  timeZone?: string;
  /** Sends each purchase's buyer as `resellerUserId` (HeroSMS); off for providers that do not take it. */
  sendsResellerUserId?: boolean;
}

export type Params = Record<string, string | number | undefined>;

/** A read is tried this many more times after an outage or provider error; writes never are. */
const READ_RETRIES = 2;
const DEFAULT_RETRY_BACKOFF_MS = 200;

export function digitsOnly(phone: string): string {
  return phone.replace(/\D/g, '');
}

/**
 * The calls of one SMS-Activate-compatible `handler_api.php`: every call is a GET with the key in the query
 * string, as the providers' own clients do (URLs are therefore never logged); reads retry an outage, writes
 * never do; an answer that is not the success an action expects becomes the UpstreamError it stands for.
 */
export function createConnection(options: SmsActivateProviderOptions) {
  const ids = createIdTranslator(options.idMap);
  const backoffMs = options.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS;
  const name = options.name ?? 'sms-activate';
  const log = options.logger;
  const timeZone = options.timeZone ?? 'UTC';
  const zoned = <T extends Date | undefined>(date: T): T => inProviderZone(date, timeZone);

  async function exchange(action: string, params: Params, mode: CallMode): Promise<ProviderAnswer> {
    const baseUrl = typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl;
    const url = new URL(baseUrl);
    url.searchParams.set('api_key', options.apiKey);
    url.searchParams.set('action', action);
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    let status: number;
    let body: string;
    try {
      ({ status, text: body } = await callForText(url, {
        headers: { accept: 'application/json, text/plain, */*' },
        timeoutMs: options.timeoutMs,
      }));
    } catch (error) {
      throw unavailableError(describeCallFailure(error), mode);
    }
    const answer = parseAnswer(status, body);
    if (!answer) throw unavailableError(`UNREADABLE_ANSWER_HTTP_${status}`, mode);
    // ERROR_SQL and its kin are failures whatever the action, so reads can retry them here.
    if (answer.type === 'token' || answer.type === 'error') {
      const httpStatus = answer.type === 'error' ? answer.httpStatus : undefined;
      if (isProviderFailure(answer.token, httpStatus))
        throw errorForToken(answer.token, mode, { httpStatus });
    }
    return answer;
  }

  async function call(action: string, params: Params, mode: CallMode): Promise<ProviderAnswer> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await exchange(action, params, mode);
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        const retry = mode === 'read' && attempt < READ_RETRIES && isRetryable(error);
        log?.[retry ? 'debug' : 'warn'](
          { provider: name, action, token: error.token, kind: error.kind, attempt },
          retry ? 'sms upstream read failed, retrying' : 'sms upstream call failed',
        );
        if (!retry) throw error;
        await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** attempt));
      }
    }
  }

  /** The error an answer stands for when it is not the success the action expects. */
  function failure(
    action: string,
    answer: ProviderAnswer,
    mode: CallMode,
    override?: TokenOverrides,
  ): UpstreamError {
    const error =
      answer.type === 'token' || answer.type === 'error'
        ? errorForToken(answer.token, mode, {
            httpStatus: answer.type === 'error' ? answer.httpStatus : undefined,
            override,
            payload: answer.payload,
          })
        : unexpectedAnswerError(`UNEXPECTED_${answer.type.toUpperCase()}`, mode);
    if (error.kind === 'configuration' || error.kind === 'account_blocked' || error.kind === 'no_balance') {
      // Users are told "temporarily unavailable"; the operator must learn the real reason.
      log?.error(
        { provider: name, action, token: error.token, kind: error.kind },
        'sms upstream account problem',
      );
    }
    return error;
  }

  function readJson<S extends z.ZodType>(
    action: string,
    answer: ProviderAnswer,
    schema: S,
    mode: CallMode,
  ): z.output<S> {
    if (answer.type !== 'json') throw failure(action, answer, mode);
    const parsed = schema.safeParse(answer.value);
    if (!parsed.success) throw unexpectedAnswerError(`MALFORMED_${action}`, mode);
    return parsed.data;
  }

  async function jsonCall<S extends z.ZodType>(action: string, params: Params, schema: S, mode: CallMode) {
    return readJson(action, await call(action, params, mode), schema, mode);
  }

  function providerCountry(countryId: string, mode: CallMode): string {
    const providerId = ids.countryFromIso(countryId);
    if (providerId === undefined) throw errorForToken('BAD_COUNTRY', mode);
    return providerId;
  }

  function providerService(service: string, mode: CallMode): string {
    const code = ids.serviceFromCanonical(service);
    if (code === undefined) throw errorForToken('BAD_SERVICE', mode);
    return code;
  }

  function operatorParam(operator: string | undefined): string | undefined {
    return operator && operator !== 'any' ? operator : undefined;
  }

  /** Optional actions this provider answered BAD_ACTION to: not asked again, so a fallback costs one call once. */
  const unsupported = new Set<string>();

  /**
   * An action not every provider of the family has; undefined where the provider says it has no such action
   * (BAD_ACTION, or one of `absentTokens`), so that the caller falls back.
   */
  async function optionalCall(
    action: string,
    params: Params,
    absentTokens: readonly string[] = [],
  ): Promise<ProviderAnswer | undefined> {
    if (unsupported.has(action)) return undefined;
    const answer = await call(action, params, 'read');
    if (
      (answer.type === 'token' || answer.type === 'error') &&
      (answer.token === 'BAD_ACTION' || absentTokens.includes(answer.token))
    ) {
      unsupported.add(action);
      return undefined;
    }
    return answer;
  }

  return {
    name,
    log,
    ids,
    timeZone,
    zoned,
    call,
    failure,
    readJson,
    jsonCall,
    optionalCall,
    providerCountry,
    providerService,
    operatorParam,
  };
}

export type Connection = ReturnType<typeof createConnection>;
