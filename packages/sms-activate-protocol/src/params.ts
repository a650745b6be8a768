import { serviceByCode } from '@simcode/contract';
import { protocolIds } from './ids';
import { ProtocolRefusal, type RefusalToken } from './refusals';

/** A call's parameters, from the query string and a form body alike, as strings. */
export type Params = Readonly<Record<string, string | undefined>>;

/** A rent's hours when a call names none (`rent_time`). */
export const DEFAULT_RENT_HOURS = 4;

/** A whole number, the fallback when the parameter is absent or empty, else the refusal. */
export function integerParam(
  value: string | undefined,
  fallback: number | undefined,
  token: RefusalToken,
): number {
  if (value === undefined || value.trim() === '') {
    if (fallback === undefined) throw new ProtocolRefusal(token);
    return fallback;
  }
  const number = Number(value);
  if (!Number.isInteger(number)) throw new ProtocolRefusal(token);
  return number;
}

/**
 * The protocol's numeric country id; 0 (Russia), SMS-Activate's default, when none is given. Rent actions
 * refuse with their own WRONG_COUNTRY.
 */
export function countryParam(params: Params, token: 'BAD_COUNTRY' | 'WRONG_COUNTRY' = 'BAD_COUNTRY'): number {
  const raw = params.country?.trim() || '0';
  if (!/^\d{1,4}$/.test(raw)) throw new ProtocolRefusal(token);
  return Number(raw);
}

/** Our service code of the protocol's `service`, which must be one we sell. */
export function serviceParam(params: Params): string {
  const raw = params.service?.trim();
  const canonical = raw ? protocolIds.canonicalOf(raw) : undefined;
  if (!canonical || !serviceByCode(canonical)) throw new ProtocolRefusal('BAD_SERVICE');
  return canonical;
}

/** A rent's hours (`rent_time`, continueRentInfo's `hours`); the range is the server's to check. */
export function rentHoursParam(params: Params, name = 'rent_time'): number {
  return integerParam(params[name], DEFAULT_RENT_HOURS, 'INVALID_TIME');
}

/** `maxPrice`, in dollars: the most a buy may cost. */
export function maxPriceParam(params: Params): number | undefined {
  if (params.maxPrice === undefined || params.maxPrice.trim() === '') return undefined;
  const price = Number(params.maxPrice);
  if (!Number.isFinite(price) || price < 0) throw new ProtocolRefusal('INVALID_PARAMETER');
  return price;
}

/** `true` or `1`, as clients write booleans in a query. */
export function flagParam(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}
