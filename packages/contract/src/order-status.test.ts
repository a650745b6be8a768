import { describe, expect, it } from 'vitest';
import { numberStatuses } from './dashboard';
import {
  cancelBlockOf,
  cancelBlockText,
  isLiveNumber,
  numberStatusOf,
  type OrderStatus,
} from './order-status';

describe('isLiveNumber', () => {
  it.each<[OrderStatus, boolean]>([
    ['pending', true],
    ['waiting', true],
    ['received', true],
    ['completed', false],
    ['canceled', false],
    ['expired', false],
    ['failed', false],
  ])('%s is live: %s', (status, live) => {
    expect(isLiveNumber({ status })).toBe(live);
  });

  it('knows every public status', () => {
    expect(numberStatuses.filter((status) => isLiveNumber({ status }))).toEqual([
      'pending',
      'waiting',
      'received',
    ]);
  });
});

describe('numberStatusOf (spec section 4)', () => {
  it.each<[OrderStatus, string | null, { status: string; code: string | null }]>([
    ['received', '48213', { status: 'STATUS_OK:48213', code: '48213' }],
    ['completed', '48213', { status: 'STATUS_OK:48213', code: '48213' }],
    ['received', null, { status: 'STATUS_OK', code: null }],
    ['pending', null, { status: 'STATUS_WAIT_CODE', code: null }],
    ['waiting', null, { status: 'STATUS_WAIT_CODE', code: null }],
    ['canceled', null, { status: 'STATUS_CANCEL', code: null }],
    ['expired', null, { status: 'STATUS_CANCEL', code: null }],
    ['failed', null, { status: 'STATUS_CANCEL', code: null }],
  ])('%s with code %s answers %j', (status, code, answer) => {
    expect(numberStatusOf({ status, code })).toEqual(answer);
  });
});

describe('cancelBlockOf', () => {
  const running = { expired: false };

  it('lets a waiting number within its time be canceled', () => {
    expect(cancelBlockOf({ status: 'waiting', code: null }, running)).toBeNull();
  });

  it.each<[OrderStatus, string | null, ReturnType<typeof cancelBlockOf>]>([
    ['received', null, 'code_arrived'],
    ['completed', '1234', 'code_arrived'],
    // The status call showed the code before the list caught up.
    ['waiting', '1234', 'code_arrived'],
    ['canceled', null, 'already_canceled'],
    ['expired', null, 'already_canceled'],
    ['failed', null, 'already_canceled'],
    ['pending', null, 'pending'],
  ])('refuses a %s number (code %s): %s', (status, code, block) => {
    expect(cancelBlockOf({ status, code }, running)).toBe(block);
  });

  it('refuses a waiting number once its time is up, and one the status call reports canceled', () => {
    expect(cancelBlockOf({ status: 'waiting' }, { expired: true })).toBe('expired');
    expect(cancelBlockOf({ status: 'waiting' }, { expired: false, canceledUpstream: true })).toBe(
      'already_canceled',
    );
  });

  it('names the reason in the sentences the server refuses with', () => {
    expect(cancelBlockText('code_arrived')).toBe(
      'A code has already arrived for this number, so it can no longer be canceled.',
    );
    expect(cancelBlockText('already_canceled')).toBe('This number has already been canceled.');
    expect(cancelBlockText('pending')).toBe(
      'This number is still being issued. Please try again in a moment.',
    );
    expect(cancelBlockText('expired')).toBe(
      'This number has expired. If no code arrived, your money is returned automatically.',
    );
  });
});
