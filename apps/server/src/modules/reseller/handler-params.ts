import {
  countryParam,
  integerParam,
  type Params,
  ProtocolRefusal,
  protocolIds,
  type RefusalToken,
  rentHoursParam,
} from '@simcode/sms-activate-protocol';
import type { AuthenticatedKey } from '../api-keys/service';
import { ANY_OPERATOR, type CatalogService } from '../catalog/service';

/**
 * The protocol's parameters as the reseller reads them: ids, our countries and operators, rent hours, the
 * phone prefixes a buyer refuses, pages and time windows.
 */

/** The most a list answers in one page. */
export const MAX_PAGE_SIZE = 100;
const MIN_RENT_HOURS = 4;
const MAX_RENT_HOURS = 720;

export function positiveId(value: string | undefined, token: RefusalToken): number {
  const id = Number(value?.trim());
  if (!value || !Number.isSafeInteger(id) || id <= 0) throw new ProtocolRefusal(token);
  return id;
}

/** Our country (ISO code) of the protocol's `country`. */
export function countryIsoParam(
  params: Params,
  token: 'BAD_COUNTRY' | 'WRONG_COUNTRY' = 'BAD_COUNTRY',
): string {
  const iso = protocolIds.isoOf(String(countryParam(params, token)));
  if (!iso) throw new ProtocolRefusal(token);
  return iso;
}

/** A rent's hours: Hero's `duration`, or SMS-Activate's `rent_time`; 4 when neither is given. */
export function hoursParam(params: Params): number {
  const hours = rentHoursParam(params, params.duration !== undefined ? 'duration' : 'rent_time');
  if (hours < MIN_RENT_HOURS || hours > MAX_RENT_HOURS) throw new ProtocolRefusal('INVALID_TIME');
  return hours;
}

/** `7918,7900111`: country code and 3 to 6 more digits each, at most 20. */
export function phoneExceptionParam(params: Params): string[] {
  const raw = params.phoneException?.trim();
  if (!raw) return [];
  const prefixes = raw.split(',').map((entry) => entry.trim());
  if (prefixes.length > 20 || prefixes.some((prefix) => !/^\d{4,10}$/.test(prefix)))
    throw new ProtocolRefusal('WRONG_EXCEPTION_PHONE');
  return prefixes;
}

/** The operator to buy from: the first of the list the country has, `any` when none is asked. */
export function operatorParam(params: Params, countryId: string, catalog: CatalogService): string {
  const asked = (params.operator ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (asked.length === 0 || asked.includes(ANY_OPERATOR)) return ANY_OPERATOR;
  const country = catalog.countries().find((entry) => entry.id === countryId);
  const known = asked.find((key) => country?.operators.some((operator) => operator.key === key));
  if (!known) throw new ProtocolRefusal('NO_NUMBERS');
  return known;
}

/** A page of a list: where it starts and how long it is, at most MAX_PAGE_SIZE. */
export interface Page {
  offset: number;
  size: number;
}

/** A page given as a number (from 1) and a size: getRentStatus's `page` and `size`. */
export function numberedPage(params: Params, defaultSize: number): Page {
  const size = pageSize(params.size, defaultSize);
  const page = integerParam(params.page, 1, 'INVALID_PARAMETER');
  if (page < 1) throw new ProtocolRefusal('INVALID_PARAMETER');
  return { offset: (page - 1) * size, size };
}

/** A page given as where it starts and a size: getActiveActivations' `start` and `limit`. */
export function offsetPage(start: string | undefined, size: string | undefined): Page {
  const offset = integerParam(start, 0, 'INVALID_PARAMETER');
  if (offset < 0) throw new ProtocolRefusal('INVALID_PARAMETER');
  return { offset, size: pageSize(size, MAX_PAGE_SIZE) };
}

function pageSize(value: string | undefined, fallback: number): number {
  const size = integerParam(value, fallback, 'INVALID_PARAMETER');
  if (size < 1) throw new ProtocolRefusal('INVALID_PARAMETER');
  return Math.min(size, MAX_PAGE_SIZE);
}

/** A Unix time in seconds; WRONG_DATE for anything else. */
function unixSecondsParam(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d{1,12}$/.test(value.trim())) throw new ProtocolRefusal('WRONG_DATE');
  return Number(value);
}

/**
 * getHistory's window and page: orders bought from `start` to `end` (Unix seconds, both included), past
 * `offset` of them, `size` (Hero) or `limit` (SMS-Activate) at a time.
 */
export function historyParams(params: Params): { from?: Date; toExclusive?: Date; page: Page } {
  const start = unixSecondsParam(params.start);
  const end = unixSecondsParam(params.end);
  if (start !== undefined && end !== undefined && end < start) throw new ProtocolRefusal('WRONG_DATE');
  return {
    from: start === undefined ? undefined : new Date(start * 1000),
    toExclusive: end === undefined ? undefined : new Date((end + 1) * 1000),
    page: offsetPage(params.offset, params.size ?? params.limit),
  };
}

/** A key browsing rent prices: its uncached reads are its own share of the providers' budget. */
export const browsing = (key: AuthenticatedKey) => ({ browsing: `key:${key.id}` });
