import type { PurchasedNumber } from '@simcode/contract';
import { describe, expect, it } from 'vitest';
import { arrivalsSince, smsCounts } from './arrivals';

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

describe('arrivalsSince', () => {
  it('reports nothing on the first look: codes already there when the page loaded are not news', () => {
    expect(arrivalsSince(null, [number(1, ['111111'])])).toEqual([]);
  });

  it('reports the latest code of a number that received an SMS since, and of one bought since', () => {
    const before = smsCounts([number(1, []), number(2, ['222222'])]);
    const now = [number(1, ['111111']), number(2, ['222222']), number(3, ['333333'])];
    expect(arrivalsSince(before, now)).toEqual([
      { numberId: 1, serviceName: 'WhatsApp', phone: '+15550001', code: '111111' },
      { numberId: 3, serviceName: 'WhatsApp', phone: '+15550003', code: '333333' },
    ]);
  });

  it('reports a second SMS on the same number (another SMS asked for)', () => {
    const before = smsCounts([number(1, ['111111'])]);
    expect(arrivalsSince(before, [number(1, ['111111', '999999'])]).map((arrival) => arrival.code)).toEqual([
      '999999',
    ]);
  });

  it('reports an SMS without a readable code with no code', () => {
    const before = smsCounts([number(1, [])]);
    const withText = {
      ...number(1, []),
      sms: [{ code: null, text: 'Hello', received_at: '2025-01-01T00:01:00Z' }],
    };
    expect(arrivalsSince(before, [withText])[0]?.code).toBeNull();
  });
});
