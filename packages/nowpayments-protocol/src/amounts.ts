/**
 * NOWPayments writes amounts as JSON numbers (`price_amount: 10.5`, `actually_paid: 0.00031`). We count in
 * whole steps: cents for fiat, 10^-8 for coins (enough for every coin's display precision the sandbox
 * uses). `toFixed` on the parsed number gives its decimal digits without exponents; the digits are then
 * read as text, so no float arithmetic decides an amount.
 */

export const COIN_DECIMALS = 8;

/** Whole steps of 10^-decimals in a non-negative amount (number or decimal string); null otherwise. */
export function amountToUnits(value: unknown, decimals: number): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    text = value.toFixed(decimals + 1);
  } else if (typeof value === 'string' && /^\d{1,13}(\.\d{1,18})?$/.test(value)) {
    text = value;
  } else {
    return null;
  }
  const [whole = '', fraction = ''] = text.split('.');
  const padded = fraction.padEnd(decimals + 1, '0');
  const units = Number(whole) * 10 ** decimals + Number(padded.slice(0, decimals) || '0');
  const rounded = padded.charCodeAt(decimals) >= 53 /* '5' */ ? units + 1 : units;
  return Number.isSafeInteger(rounded) ? rounded : null;
}

export const amountToCents = (value: unknown) => amountToUnits(value, 2);

/** The JSON number for whole steps of 10^-decimals: 1050 cents is 10.5. */
export function unitsToAmount(units: number, decimals: number): number {
  if (!Number.isSafeInteger(units) || units < 0) throw new RangeError(`not whole units: ${units}`);
  return Number((units / 10 ** decimals).toFixed(decimals));
}
