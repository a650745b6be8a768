import { describe, expect, it } from 'vitest';
import { parseLiveEvent } from './live-events';

describe('parseLiveEvent', () => {
  it('reads which number got which code when the server says so', () => {
    expect(parseLiveEvent('numbers', '{"order_id":12,"code":"48213"}')).toEqual({
      type: 'numbers',
      data: { order_id: 12, code: '48213' },
    });
    expect(parseLiveEvent('rents', '{"rent_id":7}')).toEqual({ type: 'rents', data: { rent_id: 7 } });
  });

  it('reads an event without details as one of its kind', () => {
    expect(parseLiveEvent('numbers', '{}')).toEqual({ type: 'numbers', data: {} });
    expect(parseLiveEvent('balance', '')).toEqual({ type: 'balance', data: {} });
  });

  it('keeps the kind of an event whose details do not match, without them', () => {
    expect(parseLiveEvent('numbers', '{"order_id":"12","code":"48213"}')).toEqual({
      type: 'numbers',
      data: {},
    });
    expect(parseLiveEvent('rents', 'not json')).toEqual({ type: 'rents', data: {} });
  });

  it('ignores an event of a kind it does not know', () => {
    expect(parseLiveEvent('ping', '{}')).toBeNull();
    expect(parseLiveEvent('toString', '{}')).toBeNull();
  });
});
