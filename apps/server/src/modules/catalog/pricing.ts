/**
 * Our price for something the upstream sells at `cost` (in its currency):
 *   cents = ceil(cost × usdRate × (1 + markup%) × 100), at least 1 cent.
 * Computed in integers (millionths and basis points) so that no float rounding ever charges a cent more
 * or less than the formula says: 0.1 × 3 must be 30 cents, not 31.
 */
export function salePriceCents(cost: number, usdRate: number, markupPercent: number): number {
  if (!(cost > 0) || !(usdRate > 0) || !(markupPercent >= 0)) throw new RangeError('invalid price inputs');
  const costMicros = BigInt(Math.round(cost * 1_000_000));
  const rateMicros = BigInt(Math.round(usdRate * 1_000_000));
  const markupBasisPoints = BigInt(Math.round(markupPercent * 100));
  // cost × rate has 12 decimal places, × (10000 + bp) / 10000 for the markup, × 100 for cents.
  const numerator = costMicros * rateMicros * (10_000n + markupBasisPoints);
  const denominator = 100_000_000_000_000n; // 1e12 × 1e4 / 1e2
  const cents = (numerator + denominator - 1n) / denominator;
  return Math.max(1, Number(cents));
}

export interface MarkupRules {
  defaultPercent: number;
  /** Keys: a service code (`tg`), a country id (`US`) or both (`tg:US`); the most specific wins. */
  overrides: ReadonlyMap<string, number>;
}

/**
 * Parses `PRICE_MARKUP_OVERRIDES` ("tg=50,US=20,tg:US=80"). Throws with the offending part, so a typo
 * stops the start instead of silently selling at the default margin.
 */
export function parseMarkupOverrides(text: string): Map<string, number> {
  const overrides = new Map<string, number>();
  for (const part of text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const match = /^([a-z0-9]{1,10}(?::[A-Z]{2})?|[A-Z]{2})=(\d+(?:\.\d+)?)$/.exec(part);
    if (!match)
      throw new Error(
        `PRICE_MARKUP_OVERRIDES: cannot read "${part}" (expected service=percent, COUNTRY=percent or service:COUNTRY=percent)`,
      );
    overrides.set(match[1]!, Number(match[2]));
  }
  return overrides;
}

export function markupFor(rules: MarkupRules, service: string, countryId: string): number {
  return (
    rules.overrides.get(`${service}:${countryId}`) ??
    rules.overrides.get(service) ??
    rules.overrides.get(countryId) ??
    rules.defaultPercent
  );
}
