import type { PurchasedNumber } from '@simcode/contract';

/** An SMS that arrived on one of the user's numbers since it was last looked at. */
export interface Arrival {
  numberId: number;
  serviceName: string;
  phone: string | null;
  /** The code read from the SMS; null when none could be read from it. */
  code: string | null;
}

/** What is known of a live number: what to name it by, and how many SMS it had. */
interface SeenNumber {
  serviceName: string;
  phone: string | null;
  smsCount: number;
}

function smsCount(number: PurchasedNumber): number {
  return Math.max(number.sms.length, number.code ? 1 : 0);
}

/**
 * Which of the user's numbers got which code. The server's event may say it (`pushed`); when it does not,
 * comparing a look at the live numbers with the last one tells (`look`). Counts only go up, so a look that
 * comes back older than a pushed code does not announce that code a second time.
 */
export function createArrivalTracker() {
  let seen: Map<number, SeenNumber> | null = null;
  return {
    /**
     * The numbers with more SMS than before, each with its latest code. A number not seen before was bought
     * since, so any SMS on it is new; what was there at the first look (when the page loaded) is not news.
     */
    look(numbers: readonly PurchasedNumber[]): Arrival[] {
      const before = seen;
      const arrivals: Arrival[] = [];
      seen = new Map();
      for (const number of numbers) {
        const count = smsCount(number);
        const earlier = before?.get(number.id)?.smsCount ?? 0;
        if (before && count > earlier) {
          arrivals.push({
            numberId: number.id,
            serviceName: number.service_name,
            phone: number.number,
            code: number.code ?? number.sms.at(-1)?.code ?? null,
          });
        }
        seen.set(number.id, {
          serviceName: number.service_name,
          phone: number.number,
          smsCount: Math.max(count, earlier),
        });
      }
      return arrivals;
    },

    /** A code the server says a number got: its arrival, or null for a number not seen yet (look instead). */
    pushed(numberId: number, code: string): Arrival | null {
      const number = seen?.get(numberId);
      if (!number) return null;
      number.smsCount += 1;
      return { numberId, serviceName: number.serviceName, phone: number.phone, code };
    },
  };
}
