import { describe, expect, it } from 'vitest';
import { deliveryLowConditions } from './conditions';

describe('the delivery-rate alert', () => {
  it('holds for each supplier out of its band, saying why, and for no other', () => {
    const now = new Date('2026-11-27T07:00:00Z');
    const why = 'delivery rate 40% in the last hour, normally 85%';
    expect(deliveryLowConditions(new Map([['sim-a', why]]), now)).toEqual([
      {
        key: 'supplier_delivery_low:sim-a',
        kind: 'supplier_delivery_low',
        summary: `Supplier sim-a delivers codes less often than usual: ${why}.`,
        evidence: { provider: 'sim-a', why },
        link: '/admin/providers',
        since: now,
      },
    ]);
    expect(deliveryLowConditions(new Map(), now)).toEqual([]);
  });
});
