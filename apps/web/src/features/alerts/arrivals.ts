import type { PurchasedNumber } from '@simcode/contract';

/** An SMS that arrived on one of the user's numbers since it was last looked at. */
export interface Arrival {
  numberId: number;
  serviceName: string;
  phone: string | null;
  /** The code read from the SMS; null when none could be read from it. */
  code: string | null;
}

/** How many SMS each number had when last looked at. */
export type SmsCounts = ReadonlyMap<number, number>;

function smsCount(number: PurchasedNumber): number {
  return Math.max(number.sms.length, number.code ? 1 : 0);
}

export function smsCounts(numbers: readonly PurchasedNumber[]): SmsCounts {
  return new Map(numbers.map((number) => [number.id, smsCount(number)]));
}

/**
 * The numbers with more SMS than before, each with its latest code. A number not seen before was bought
 * since, so any SMS on it is new; what was there when the page loaded (`before` null) is not news.
 */
export function arrivalsSince(before: SmsCounts | null, numbers: readonly PurchasedNumber[]): Arrival[] {
  if (!before) return [];
  return numbers
    .filter((number) => smsCount(number) > (before.get(number.id) ?? 0))
    .map((number) => ({
      numberId: number.id,
      serviceName: number.service_name,
      phone: number.number,
      code: number.code ?? number.sms.at(-1)?.code ?? null,
    }));
}
