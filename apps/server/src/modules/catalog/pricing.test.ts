import { describe, expect, it } from 'vitest';
import { markupFor, parseMarkupOverrides, salePriceCents } from './pricing';

describe('salePriceCents', () => {
  it.each([
    // cost, rate, markup %, cents
    [0.1, 3, 0, 30],
    [0.3, 1, 0, 30],
    [0.35, 1, 30, 46], // 45.5 → 46
    [1, 1, 30, 130],
    [0.2, 1, 15, 23],
    [12.5, 0.011, 30, 18], // 17.875 → 18 (a RUB price)
    [0.001, 1, 0, 1], // never free
    [0.07, 1, 0, 7],
  ])('cost %s × rate %s + %s percent is %s cents', (cost, rate, markup, cents) => {
    expect(salePriceCents(cost, rate, markup)).toBe(cents);
  });

  it('rejects nonsense', () => {
    expect(() => salePriceCents(0, 1, 30)).toThrow();
    expect(() => salePriceCents(1, -1, 30)).toThrow();
    expect(() => salePriceCents(Number.NaN, 1, 30)).toThrow();
  });
});

describe('markup rules', () => {
  it('parses overrides and picks the most specific', () => {
    const rules = { defaultPercent: 30, overrides: parseMarkupOverrides('tg=50, US=20,tg:US=80') };
    expect(markupFor(rules, 'tg', 'US')).toBe(80);
    expect(markupFor(rules, 'tg', 'GB')).toBe(50);
    expect(markupFor(rules, 'wa', 'US')).toBe(20);
    expect(markupFor(rules, 'wa', 'GB')).toBe(30);
  });

  it('names the part it cannot read', () => {
    expect(() => parseMarkupOverrides('tg=50,oops')).toThrow(/"oops"/);
    expect(parseMarkupOverrides('')).toEqual(new Map());
  });
});
