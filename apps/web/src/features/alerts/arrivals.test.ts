import type { PurchasedNumber } from '@simcode/contract';
import { describe, expect, it } from 'vitest';
import { createArrivalTracker } from './arrivals';

function number(id: number, codes: string[]): PurchasedNumber {
  return {
    id,
    number_id: `a${id}`,
    country: 'us',
    country_name: 'United States',
    service: 'wa',
    service_name: 'WhatsApp',
    operator: 'any',
    number: `+1555000${id}`,
    price: 0.5,
    created_at: '2025-01-01T00:00:00Z',
    expires_at: '2025-01-01T00:20:00Z',
    status: codes.length > 0 ? 'received' : 'waiting',
    status_reason: null,
    code: codes.at(-1) ?? null,
    sms: codes.map((code) => ({ code, text: `Your code is ${code}`, received_at: '2025-01-01T00:01:00Z' })),
  };
}

/** A tracker that has had its first look at these numbers. */
function lookedAt(numbers: PurchasedNumber[]) {
  const tracker = createArrivalTracker();
  tracker.look(numbers);
  return tracker;
}

describe('looking at the live numbers', () => {
  it('reports nothing on the first look: codes already there when the page loaded are not news', () => {
    expect(createArrivalTracker().look([number(1, ['111111'])])).toEqual([]);
  });

  it('reports the latest code of a number that received an SMS since, and of one bought since', () => {
    const tracker = lookedAt([number(1, []), number(2, ['222222'])]);
    const now = [number(1, ['111111']), number(2, ['222222']), number(3, ['333333'])];
    expect(tracker.look(now)).toEqual([
      { numberId: 1, serviceName: 'WhatsApp', phone: '+15550001', code: '111111' },
      { numberId: 3, serviceName: 'WhatsApp', phone: '+15550003', code: '333333' },
    ]);
  });

  it('reports a second SMS on the same number (another SMS asked for)', () => {
    const tracker = lookedAt([number(1, ['111111'])]);
    expect(tracker.look([number(1, ['111111', '999999'])]).map((arrival) => arrival.code)).toEqual([
      '999999',
    ]);
  });

  it('reports an SMS without a readable code with no code', () => {
    const tracker = lookedAt([number(1, [])]);
    const withText = {
      ...number(1, []),
      sms: [{ code: null, text: 'Hello', received_at: '2025-01-01T00:01:00Z' }],
    };
    expect(tracker.look([withText])[0]?.code).toBeNull();
  });
});

describe('a code the server pushes', () => {
  it('is announced for a number seen before, named as the last look named it', () => {
    const tracker = lookedAt([number(1, [])]);
    expect(tracker.pushed(1, '48213')).toEqual({
      numberId: 1,
      serviceName: 'WhatsApp',
      phone: '+15550001',
      code: '48213',
    });
  });

  it('is not announced again by a later look, whether that look already shows it or not', () => {
    const tracker = lookedAt([number(1, [])]);
    tracker.pushed(1, '48213');
    expect(tracker.look([number(1, [])])).toEqual([]);
    expect(tracker.look([number(1, ['48213'])])).toEqual([]);
    expect(tracker.look([number(1, ['48213', '777777'])]).map((arrival) => arrival.code)).toEqual(['777777']);
  });

  it('leaves a number not seen yet to a look, which reports it as bought since', () => {
    const tracker = lookedAt([number(1, [])]);
    expect(tracker.pushed(2, '48213')).toBeNull();
    expect(tracker.look([number(1, []), number(2, ['48213'])]).map((arrival) => arrival.numberId)).toEqual([
      2,
    ]);
  });

  it('waits for the first look: before it, no number is known', () => {
    expect(createArrivalTracker().pushed(1, '48213')).toBeNull();
  });
});
