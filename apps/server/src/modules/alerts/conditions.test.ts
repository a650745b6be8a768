import { describe, expect, it } from 'vitest';
import { deliveryLowConditions, pairDeliveryLowConditions } from './conditions';

describe('the delivery-rate alert', () => {
  it('holds for each supplier out of its band, saying why, and for no other', () => {
    const now = new Date('2026-11-27T07:00:00Z');
    const why = 'delivery rate 40% in the last hour, normally 85%';
    expect(deliveryLowConditions(new Map([['sim-a', why]]), now)).toEqual([
      {
        key: 'supplier_delivery_low:sim-a',
        kind: 'supplier_delivery_low',
        summary: `Supplier sim-a delivers codes worse than usual: ${why}.`,
        evidence: { provider: 'sim-a', why },
        link: '/admin/providers',
        since: now,
      },
    ]);
    expect(deliveryLowConditions(new Map(), now)).toEqual([]);
  });

  it('holds for each popular pair out of its band, named as buyers know it, linked to its index page', () => {
    const now = new Date('2026-11-27T07:00:00Z');
    const why = 'delivery rate 0% in the last hour, normally 100%';
    expect(pairDeliveryLowConditions(new Map([['tg:US', why]]), now)).toEqual([
      {
        key: 'pair_delivery_low:tg:US',
        kind: 'pair_delivery_low',
        summary: `Telegram in United States delivers codes worse than usual: ${why}.`,
        evidence: { service: 'tg', country: 'US', why },
        link: '/stats/tg',
        since: now,
      },
    ]);
  });
});
