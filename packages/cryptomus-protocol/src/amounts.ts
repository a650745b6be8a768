/**
 * Providers write money as decimal strings ("16.00000000"); we keep whole numbers of a currency's smallest
 * step (cents for USD). The conversion works on the digits, never through a float, so "0.29" is 29 cents
 * and not 28.999... rounded the wrong way.
 */

/** Thirteen integer digits keep every amount in cents below 10^15, well inside Number.MAX_SAFE_INTEGER. */
const DECIMAL_PATTERN = /^(\d{1,13})(?:\.(\d{1,18}))?$/;

/**
 * Whole steps of 10^-decimals in a non-negative decimal amount, rounded half up; null for anything else
 * (signs, exponents, spaces, commas, empty strings, amounts too large to count exactly). Numbers are
 * accepted in case a provider sends one, through their shortest text, so 10.5 reads as "10.5".
 */
export function decimalToUnits(value: unknown, decimals: number): number | null {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return null;
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(decimals + 1, '0');
  const units = Number(match[1]!) * 10 ** decimals + Number(fraction.slice(0, decimals) || '0');
  const rounded = fraction.charCodeAt(decimals) >= '5'.charCodeAt(0) ? units + 1 : units;
  return Number.isSafeInteger(rounded) ? rounded : null;
}

/** "12.34" for 1234 steps of 10^-2: the fixed-point text of a whole number of steps. */
export function unitsToDecimal(units: number, decimals: number): string {
  if (!Number.isSafeInteger(units) || units < 0) {
    throw new RangeError(`not a whole, non-negative number of units: ${units}`);
  }
  if (decimals === 0) return String(units);
  const text = String(units).padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** Cents in a decimal amount, rounded half up to the cent; null for anything that is not one. */
export function decimalToCents(value: unknown): number | null {
  return decimalToUnits(value, 2);
}

/** "12.34" for 1234: the two-decimal form invoices are created with. */
export function centsToDecimal(amountCents: number): string {
  return unitsToDecimal(amountCents, 2);
}
