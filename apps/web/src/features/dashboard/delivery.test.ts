import { DELIVERY_MIN_ORDERS } from '@simcode/contract';
import { describe, expect, it } from 'vitest';
import { deliveryDescription, deliveryRate, deliveryText, secondsToCode } from './delivery';

describe('delivery figures beside a price', () => {
  it('shows the rate and the median time to code', () => {
    const figures = { orders: 50, delivered: 47, median_seconds: 40 };
    expect(deliveryText(figures)).toBe('94% · ~40 s');
    expect(deliveryDescription(figures)).toBe(
      '94% of orders in the last 7 days received a code, typically within ~40 s.',
    );
  });

  it('counts minutes from a minute and a half', () => {
    expect(deliveryText({ orders: 20, delivered: 10, median_seconds: 200 })).toBe('50% · ~3 min');
  });

  it('shows the rate alone when no code was delivered', () => {
    expect(deliveryText({ orders: 12, delivered: 0, median_seconds: null })).toBe('0%');
  });

  it('calls an offer with too few orders new, and sorts it as unknown', () => {
    const few = { orders: DELIVERY_MIN_ORDERS - 1, delivered: 9, median_seconds: 30 };
    for (const figures of [few, null, undefined]) {
      expect(deliveryText(figures)).toBe('new');
      expect(deliveryRate(figures)).toBeNull();
      expect(secondsToCode(figures)).toBeNull();
    }
  });
});
